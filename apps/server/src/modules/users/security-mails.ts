/**
 * Security mails (DESIGN §11.1): the account's owner hears of a password change, an e-mail change (at the
 * new address and the old one), two-factor turned off, a passkey added, and a sign-in from a device and
 * address not seen before. Each says when (UTC), from where (the address) and on what device, and links to
 * the sessions in Settings, where a stranger's session can be ended. They go after the response
 * (`sendLater`), at most `maxMailsPerRecipient` of each kind per address per hour (`mayMail`); a failure is
 * only logged.
 */

import type { SignInClient } from '../../http/sign-in-client.ts';
import { escapeHtml, type Mail } from '../../lib/mailer.ts';
import { deviceName } from './device-name.ts';
import { type MailLinkDeps, mayMail } from './mail-links.ts';

/** What happened where: the time, the client's address and its device name (`deviceName`). */
export interface SecurityEvent {
  at: Date;
  address: string;
  device: string;
}

/** The account a security mail is about: its nickname and where it goes. */
export interface SecurityMailAccount {
  nickname: string;
  email: string | null;
}

/** The kinds of security mail, each with its own per-recipient budget. */
export type SecurityMailKind = 'password-changed' | 'email-changed' | 'mfa-off' | 'passkey-added' | 'new-sign-in';

/** The anchor of the sessions card in Settings (`SessionsCard`), where every security mail links. */
const SESSIONS_PAGE = '/userconfig#sessions';

/** The `SecurityEvent` of a request's client, now. */
export function securityEventOf(client: SignInClient, at: Date = new Date()): SecurityEvent {
  return { at, address: client.address, device: deviceName(client.userAgent) };
}

/** `2026-12-02 12:40 UTC`: a time as the mails show it. */
export function utcTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The link to Settings' sessions on this site. */
export function sessionsLink(publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, '')}${SESSIONS_PAGE}`;
}

/** One security mail: `what` happened to `nickname`'s account at `event`, with the sessions link. */
function securityMail(
  to: string,
  subject: string,
  nickname: string,
  what: string,
  event: SecurityEvent,
  link: string,
): Mail {
  const lead = `Hello ${nickname}, ${what}`;
  const facts: Array<[string, string]> = [
    ['When', utcTime(event.at)],
    ['From', event.address],
    ['Device', event.device],
  ];
  const footer =
    'If this was you, there is nothing to do. If it was not, change your password and end the sessions you do not know in Settings.';
  const text = `${lead}\n\n${facts.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\nYour sessions: ${link}\n\n${footer}\n`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(lead)}</p>
<table style="border-collapse:collapse">${facts
    .map(
      ([k, v]) =>
        `<tr><th style="text-align:left;padding:2px 12px 2px 0">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#228be6;color:#fff;border-radius:6px;text-decoration:none">Review your sessions</a></p>
<p style="font-size:13px;color:#555">Or open this address: <br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(footer)}</p>
</body></html>`;
  return { to, subject, text, html, link };
}

/** Sends `mail` of `kind` after the response, within the per-recipient limit; a failure is only logged. */
function sendLater(deps: MailLinkDeps, kind: SecurityMailKind, mail: Mail): void {
  mayMail(deps, kind, mail.to)
    .then(async (may) => {
      if (may) await deps.mailer.send(mail);
    })
    .catch((err: unknown) => deps.app.log.error({ err, to: mail.to, kind }, 'security mail not sent'));
}

/** Mails `account` a `kind` mail saying `what` (none when it has no e-mail). */
function notify(
  deps: MailLinkDeps,
  kind: SecurityMailKind,
  account: SecurityMailAccount,
  subject: string,
  what: string,
  event: SecurityEvent,
): void {
  if (!account.email) return;
  sendLater(
    deps,
    kind,
    securityMail(account.email, subject, account.nickname, what, event, sessionsLink(deps.publicUrl)),
  );
}

/** DESIGN §11.1: "Your Starlight password was changed" (a change in Settings or a reset link). */
export function mailPasswordChangedLater(deps: MailLinkDeps, account: SecurityMailAccount, event: SecurityEvent): void {
  notify(
    deps,
    'password-changed',
    account,
    'Your Starlight password was changed',
    'the password of your Starlight account was changed.',
    event,
  );
}

/**
 * DESIGN §11.1: "Your Starlight e-mail was changed", to the new address and to the old one (so the owner
 * hears of it even when someone else took the account and moved it away).
 */
export function mailEmailChangedLater(
  deps: MailLinkDeps,
  account: { nickname: string; oldEmail: string | null; newEmail: string },
  event: SecurityEvent,
): void {
  const subject = 'Your Starlight e-mail was changed';
  const what = `the e-mail of your Starlight account was changed${account.oldEmail ? ` from ${account.oldEmail}` : ''} to ${account.newEmail}.`;
  notify(deps, 'email-changed', { nickname: account.nickname, email: account.newEmail }, subject, what, event);
  notify(deps, 'email-changed', { nickname: account.nickname, email: account.oldEmail }, subject, what, event);
}

/** DESIGN §11.1: "Two-factor authentication was turned off" on the account. */
export function mailTwoFactorOffLater(deps: MailLinkDeps, account: SecurityMailAccount, event: SecurityEvent): void {
  notify(
    deps,
    'mfa-off',
    account,
    'Two-factor authentication was turned off on your Starlight account',
    'two-factor authentication was turned off on your Starlight account: a password alone now signs in.',
    event,
  );
}

/** DESIGN §11.1: "A passkey was added" to the account (`name`: the passkey's, when it has one). */
export function mailPasskeyAddedLater(
  deps: MailLinkDeps,
  account: SecurityMailAccount,
  event: SecurityEvent,
  name?: string,
): void {
  notify(
    deps,
    'passkey-added',
    account,
    'A passkey was added to your Starlight account',
    `a passkey${name ? ` (${name})` : ''} was added to your Starlight account: it signs in without a password.`,
    event,
  );
}

/** DESIGN §11.1: "New sign-in", from a device and address the account has not signed in from before. */
export function mailNewSignInLater(deps: MailLinkDeps, account: SecurityMailAccount, event: SecurityEvent): void {
  notify(
    deps,
    'new-sign-in',
    account,
    'New sign-in to your Starlight account',
    'your Starlight account was signed in to from a device and address it has not used before.',
    event,
  );
}
