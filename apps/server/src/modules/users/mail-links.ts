/**
 * The links Starlight mails (DESIGN §8): verify an e-mail, reset a password, sign in once when the
 * sign-in limits stop a right password. Tokens are 192 characters of base64url over 144 CSPRNG bytes
 * (SPEC §5: 150 to 255), stored as their SHA-256 only (in PostgreSQL, so any replica can consume them),
 * used once, and expiring. Mails of each kind are limited per recipient.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import { type Mailer, mayMail as mayMailTo, newMailToken } from '../../lib/mailer.ts';
import { insertMailToken, type MailTokenPurpose } from './email.queries.ts';
import { signInLinkMail } from './email.templates.ts';

/** What issuing and mailing a link needs: a part of the users module's dependencies. */
export interface MailLinkDeps {
  db: Db;
  app: { log: FastifyBaseLogger };
  mailsSent: FailureCounter;
  maxMailsPerRecipient: number;
  mailer: Mailer;
  publicUrl: string;
}

/** DESIGN §8: a verify link lasts 24 hours, a reset link 1 hour, a sign-in link 15 minutes (milliseconds). */
export const TOKEN_LIFETIME_MS: Record<MailTokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  signin: 15 * 60 * 1000,
};

/** The web page that follows each kind of link: `PUBLIC_URL/{page}/{token}`. */
const LINK_PAGE: Record<MailTokenPurpose, string> = {
  verify: 'verifyemail',
  reset: 'resetpassword',
  signin: 'loginlink',
};

/**
 * Counts a mail of `purpose` (a link's purpose, or a security mail's kind) to `to` and says whether it may go: at most `maxMailsPerRecipient` of each
 * kind per address per hour, counted in the shared store (Redis when `REDIS_URL` is set), so a flood of
 * requests cannot fill a mailbox. Each kind has its own budget: a flood of reset requests, which anyone
 * can make, does not stop the owner's verification mails.
 */
export async function mayMail(deps: MailLinkDeps, purpose: string, to: string): Promise<boolean> {
  return mayMailTo(deps.mailsSent, deps.maxMailsPerRecipient, purpose, to);
}

/** Issues a token for `purpose` and returns the page link that carries it (`PUBLIC_URL/verifyemail/{token}`). */
export async function issueLink(
  deps: MailLinkDeps,
  userId: string,
  email: string,
  purpose: MailTokenPurpose,
): Promise<string> {
  const { token, hash } = newMailToken();
  await insertMailToken(deps.db, {
    tokenHash: hash,
    userId,
    purpose,
    email,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
  });
  return `${deps.publicUrl.replace(/\/$/, '')}/${LINK_PAGE[purpose]}/${token}`;
}

/**
 * Mails the account a single-use sign-in link (`PUBLIC_URL/loginlink/{token}`, 15 minutes), after the
 * response: the caller answers at once, the same whether or not a mail goes, so neither the answer nor its
 * time tells anything. Past the per-recipient limit (`mayMail`) no mail goes; a failure is only logged.
 */
export function mailSignInLinkLater(
  deps: MailLinkDeps,
  row: { id: string; nickname: string; email: string | null },
): void {
  const to = row.email;
  if (!to) return;
  mayMail(deps, 'signin', to)
    .then(async (may) => {
      if (!may) return;
      const link = await issueLink(deps, row.id, to, 'signin');
      await deps.mailer.send(signInLinkMail(to, row.nickname, link));
    })
    .catch((err: unknown) => deps.app.log.error({ err, to }, 'sign-in link not sent'));
}
