/**
 * The mail that confirms a withdrawal address (DESIGN §11.2): which currency, address and label were
 * added, the link that confirms it (24 hours), and that withdrawals may go to it only after the hold.
 */
import { escapeHtml, type Mail } from '../../lib/mailer.ts';

/** What the mail names: the member, the address and the hold it waits once confirmed. */
export interface AddressMailFacts {
  nickname: string;
  ticker: string;
  walletAddress: string;
  label: string;
  holdHours: number;
}

/** `n hours` in words (`1 hour`). */
export function hoursText(n: number): string {
  return `${n} hour${n === 1 ? '' : 's'}`;
}

/** The confirmation mail of a new withdrawal address to `to`; `link` confirms it once. */
export function withdrawAddressMail(to: string, f: AddressMailFacts, link: string): Mail {
  const lead = `Hello ${f.nickname}, a withdrawal address was added to your Starlight account. Confirm it if it was you.`;
  const rows: Array<[string, string]> = [
    ['Currency', f.ticker],
    ['Address', f.walletAddress],
    ['Label', f.label],
  ];
  const after =
    f.holdHours > 0
      ? `Once confirmed, withdrawals can go to it after ${hoursText(f.holdHours)}.`
      : 'Once confirmed, withdrawals can go to it at once.';
  const footer =
    'The link works once and expires in 24 hours. If you did not add this address, do not open the link: change your password and remove the address in Settings.';
  const text = `${lead}\n\n${rows.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${after}\n\nOpen this link to confirm the address:\n${link}\n\n${footer}\n`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">Confirm your withdrawal address</h1>
<p>${escapeHtml(lead)}</p>
<table style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#555">${escapeHtml(k)}</td><td style="padding:4px 0;word-break:break-all">${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>
<p>${escapeHtml(after)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#228be6;color:#fff;border-radius:6px;text-decoration:none">Confirm address</a></p>
<p style="font-size:13px;color:#555">Or open this address: <br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(footer)}</p>
</body></html>`;
  return { to, subject: 'Confirm your Starlight withdrawal address', text, html, link };
}
