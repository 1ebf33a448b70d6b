/**
 * Passkeys in this browser (DESIGN §11.1): whether they can work here, and the browser's refusals in
 * words. Browsers refuse WebAuthn on a page served from an IP address, and the server refuses passkeys
 * when its `PUBLIC_URL` is one (this page's origin), with the same message.
 */
import { browserSupportsWebAuthn, WebAuthnError } from '@simplewebauthn/browser';
import { MESSAGES } from '@starlight/shared';
import { errorMessage } from './errors.ts';

/** Whether `host` (a URL's hostname) is an IPv4 or IPv6 address. */
export function isIpHost(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[');
}

/** Why passkeys cannot work on this page, or null when they can. */
export function passkeysUnavailableReason(): string | null {
  if (!browserSupportsWebAuthn()) return 'This browser does not support passkeys';
  if (isIpHost(window.location.hostname)) return MESSAGES.passkeysNeedDomain;
  return null;
}

/** A passkey ceremony's failure in words: the person cancelled, the passkey exists, or the server's message. */
export function passkeyErrorMessage(err: unknown): string {
  const name = err instanceof WebAuthnError ? (err.cause as Error | undefined)?.name : (err as Error | null)?.name;
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device already holds a passkey for your account';
  }
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out';
  return errorMessage(err);
}
