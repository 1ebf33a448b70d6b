/**
 * A real SMTP server for tests (the `smtp-server` package): it accepts every mail, parses it with
 * mailparser and lets a test wait for the next mail to an address. Also reads the `.eml` outbox.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received mail as a test checks it: who it went to, its subject, both bodies and the link in it. */
export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The first `http(s)://…/verifyemail/…`, `/resetpassword/…`, `/loginlink/…` or `/withdrawaddress/…` link of the plain-text body. */
  link: string | null;
}

const LINK = /https?:\/\/\S+\/(?:verifyemail|resetpassword|loginlink|withdrawaddress)\/[A-Za-z0-9_-]+/;

async function parseMail(raw: Buffer | string): Promise<CaughtMail> {
  const mail = await simpleParser(raw);
  const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
  const text = mail.text ?? '';
  return {
    to: to ?? '',
    from: mail.from?.text ?? '',
    subject: mail.subject ?? '',
    text,
    html: typeof mail.html === 'string' ? mail.html : '',
    link: LINK.exec(text)?.[0] ?? null,
  };
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`: the app's SMTP_URL. */
  url: string;
  /** Every mail received so far. */
  mails: CaughtMail[];
  /** Resolves with the next mail to `to` not yet taken, of those `where` accepts (waits up to `timeoutMs`). */
  next(to: string, timeoutMs?: number, where?: (mail: CaughtMail) => boolean): Promise<CaughtMail>;
  close(): Promise<void>;
}

/** Starts an SMTP server on a free port of 127.0.0.1 (no TLS, no auth). */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const taken = new Set<CaughtMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        parseMail(Buffer.concat(chunks)).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 5000, where = () => true) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to) && where(m));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every mail of an outbox folder (`DATA_DIR/outbox`), oldest first; empty when there is none. */
export async function readOutbox(dir: string): Promise<CaughtMail[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const eml = files.filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(eml.map(async (f) => parseMail(await readFile(path.join(dir, f)))));
}
