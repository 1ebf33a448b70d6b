/**
 * The purchase receipt (DESIGN §7, §8): once a provider event completes a checkout and its transaction
 * has committed, the member gets one mail with what was bought, what it cost and what was credited. It
 * goes after the commit, never inside the money's transaction (a slow relay holds no lock), and only for
 * the event whose outcome is `completed`: a redelivered event is a `duplicate` and mails nothing. Receipts
 * share the per-recipient hourly limit of the site's other mails, in a budget of their own.
 */
import { formatAtPrecision, fromNumeric } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import { escapeHtml, type Mail, type Mailer, mayMail } from '../../lib/mailer.ts';
import { type CheckoutLookup, findReceiptFacts, type ReceiptFacts } from './checkout.queries.ts';

/** What mailing receipts needs (built by checkout.module.ts from the configuration). */
export interface ReceiptDeps {
  db: Db;
  mailer: Mailer;
  /** The mail counter shared with the users module's mails (Redis when there is one). */
  mailsSent: FailureCounter;
  maxMailsPerRecipient: number;
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
}

/** The receipt mail of `f` to `to`; `link` opens the member's checkout logs. */
export function receiptMail(to: string, f: ReceiptFacts, link: string): Mail {
  const cost = `${formatAtPrecision(fromNumeric(f.cost), 2)} USD`;
  const credits = `${formatAtPrecision(fromNumeric(f.amount), f.precision)} Credits`;
  const date = f.updatedAt.toISOString().replace('T', ' ').slice(0, 16);
  const rows: Array<[string, string]> = [
    ['Package', f.packageName],
    ['Paid', cost],
    ['Credited', credits],
    ['Date (UTC)', date],
    ['Checkout', f.id],
  ];
  const lead = `Hello ${f.nickname}, thank you for your purchase. Your payment is complete and your Credits are in your account.`;
  const text = `${lead}\n\n${rows.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\nYour purchases: ${link}\n`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">Your Starlight receipt</h1>
<p>${escapeHtml(lead)}</p>
<table style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#555">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>
<p style="font-size:13px;color:#555"><a href="${escapeHtml(link)}">See your purchases</a></p>
</body></html>`;
  return { to, subject: `Your Starlight receipt: ${f.packageName}`, text, html, link };
}

/**
 * Mails the receipt of the checkout `by` names, in the background (the caller has committed and answers
 * at once). Nothing goes when the member has no e-mail or is past the hourly limit; a failure is logged.
 */
export function mailReceiptLater(deps: ReceiptDeps, by: CheckoutLookup): void {
  (async () => {
    const facts = await findReceiptFacts(deps.db, by);
    const to = facts?.email;
    if (!facts || !to) return;
    if (!(await mayMail(deps.mailsSent, deps.maxMailsPerRecipient, 'receipt', to))) return;
    const link = `${deps.publicUrl.replace(/\/$/, '')}/userbank?tab=logs&log=checkout`;
    await deps.mailer.send(receiptMail(to, facts, link));
  })().catch((err: unknown) => deps.log.error({ err }, 'receipt not sent'));
}
