/**
 * What other modules may use of the API keys: revoking a member's keys inside their own transaction, so
 * that account recovery (a password reset, a password change) ends the keys with the sessions (DESIGN §8).
 */
export { revokeApiKeys } from './apikeys.service.ts';
