/**
 * The in-app side of the security mails (DESIGN §11.3 `security`): each security event of an account
 * also writes a `security` notification, in the transaction of the change itself, saying what happened,
 * when (UTC), from where and on what device, and linking to the sessions in Settings. It is never mailed
 * again by the notification mails: the security mail already went (security-mails.ts).
 */
import type { ChangePublisher } from '../../lib/live-changes.ts';
import type { SecurityChange, SecurityNotices } from '../mfa/mfa.public.ts';
import { type NewNotification, notify, securityNotice } from '../notifications/notifications.public.ts';
import { type SecurityEvent, type SecurityMailKind, securityEventOf, utcTime } from './security-mails.ts';

/** The title and the first sentence of each kind, as the member reads them in the app. */
const WORDS: Record<SecurityMailKind | SecurityChange, { title: string; what: string }> = {
  'password-changed': { title: 'Your password was changed', what: 'The password of your account was changed.' },
  'email-changed': { title: 'Your e-mail was changed', what: 'The e-mail of your account was changed.' },
  'mfa-off': {
    title: 'Two-factor authentication was turned off',
    what: 'Two-factor authentication was turned off: a password alone now signs in.',
  },
  'passkey-added': { title: 'A passkey was added', what: 'A passkey was added to your account.' },
  'api-key-created': { title: 'An API key was made', what: 'An API key was made for your account.' },
  'new-sign-in': {
    title: 'New sign-in to your account',
    what: 'Your account was signed in to from a device and address it has not used before.',
  },
};

/**
 * The `security` notification of `kind` for member `userId`, at `event` (when, from where, on what
 * device); `detail` replaces the first sentence (an e-mail change names the new address).
 */
export function securityNoticeOf(
  userId: string,
  kind: SecurityMailKind | SecurityChange,
  event: SecurityEvent,
  detail?: string,
): NewNotification {
  const { title, what } = WORDS[kind];
  const body = `${detail ?? what} On ${utcTime(event.at)} from ${event.address} (${event.device}). If this was not you, change your password and end the sessions you do not know.`;
  return securityNotice(userId, title, body);
}

/**
 * The `SecurityNotices` the modules below this one use (second factors, passkeys, API keys): each change's notice
 * written in its transaction, its live push handed to `publisher` after the commit. A passkey's or an API
 * key's `detail` is its name.
 */
export function securityNotices(publisher: ChangePublisher): SecurityNotices {
  return {
    async write(tx, changes, userId, change, client, detail) {
      const named: Partial<Record<SecurityChange, string>> = {
        'passkey-added': `A passkey (${detail}) was added to your account.`,
        'api-key-created': `An API key (${detail}) was made for your account.`,
      };
      const what = detail ? named[change] : undefined;
      await notify(tx, [securityNoticeOf(userId, change, securityEventOf(client), what)], changes);
    },
    publish: (changes) => publisher.add(changes),
  };
}
