/**
 * Outgoing mail (DESIGN §8) through nodemailer: over `SMTP_URL` when it is set; otherwise each mail is
 * written as an `.eml` file under `DATA_DIR/outbox/` and its link is logged, so the embedded default
 * (`make start`) works with no mail server. nodemailer is loaded with the first mail, not at start,
 * so a start that never mails does not pay for it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FailureCounter } from './failure-counter.ts';
import { onFirstUse } from './on-first-use.ts';

/** One mail: a subject, a plain-text and an HTML body, and the one link it carries (logged in outbox mode). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
}

export interface Mailer {
  /** Sends a mail (or writes it to the outbox). Rejects when the relay refuses it. */
  send(mail: Mail): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}

/** nodemailer's module, loaded when first asked for. */
async function nodemailer() {
  return (await import('nodemailer')).default;
}

/** The outbox folder of a data directory, where mails go without `SMTP_URL` (a scratch folder for `memory://`). */
export function outboxDir(dataDir: string): string {
  return dataDir === 'memory://' ? path.join(tmpdir(), 'starlight-outbox') : path.resolve(dataDir, 'outbox');
}

/**
 * Makes the mailer of DESIGN §8: SMTP when `smtpUrl` is set (nodemailer's URL form, e.g.
 * `smtp://user:pass@relay:587`), else `.eml` files in `outboxDir(dataDir)`.
 */
export function createMailer({ smtpUrl, from, dataDir, log }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = onFirstUse(() => nodemailer().then((m) => m.createTransport(smtpUrl)));
    return {
      async send(mail) {
        await (await transport()).sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  // nodemailer's stream transport renders the whole RFC 5322 message without sending it anywhere.
  const render = onFirstUse(() =>
    nodemailer().then((m) => m.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })),
  );
  const dir = outboxDir(dataDir);
  let sequence = 0;
  return {
    async send(mail) {
      const info = await (await render()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      sequence += 1;
      const file = path.join(dir, `${stamp}-${sequence}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: mail.to, subject: mail.subject, file, link: mail.link }, 'mail written to the outbox');
    },
  };
}

/** Escapes text for HTML element content and attribute values (a mail's HTML body). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The window of the per-recipient mail limit: an hour. */
const MAIL_WINDOW_MS = 60 * 60 * 1000;

/**
 * Counts a mail of `kind` to `to` in `mailsSent` (shared by every replica when it is Redis) and says
 * whether it may go: at most `maxPerHour` of each kind per address per hour, so a flood of requests
 * cannot fill a mailbox. Each kind has its own budget.
 */
export async function mayMail(
  mailsSent: FailureCounter,
  maxPerHour: number,
  kind: string,
  to: string,
): Promise<boolean> {
  return (await mailsSent.record(`${kind}:${to.toLowerCase()}`, MAIL_WINDOW_MS)) <= maxPerHour;
}

/**
 * A new token for a mailed link (DESIGN §8): 192 characters of base64url over 144 CSPRNG bytes (SPEC §5:
 * 150 to 255), with the form it is stored in (`hashMailToken`).
 */
export function newMailToken(): { token: string; hash: string } {
  const token = randomBytes(144).toString('base64url');
  return { token, hash: hashMailToken(token) };
}

/** The stored form of a mailed link's token: its SHA-256, hex. */
export function hashMailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
