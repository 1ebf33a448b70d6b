/**
 * What other modules may use of the oversight module: the admin log, written in the caller's own transaction, so an
 * admin action and its log row commit together (SPEC §3 admin logs).
 */
export { insertAdminLog, insertAdminLogs } from './admin-log.queries.ts';
