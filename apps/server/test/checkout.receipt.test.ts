/**
 * The purchase receipt (DESIGN §7, §8): a completed checkout mails its member one receipt after the
 * commit, with the package, the price and the Credits credited; pressing Pay again, a redelivered
 * event, and a failed payment mail nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { call, expectLedgerBalanced, makeApp, registerMember, useTestApp } from './helpers.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});

const t = useTestApp({}, { build: () => makeApp({ SMTP_URL: catcher.url, PUBLIC_URL: 'https://starlight.example' }) });

const SUBJECT = /^Your Starlight receipt/;

function sandbox(token: string, checkoutId: string, action: string) {
  return call(t.app, token, 'POST', `/api/checkout/sandbox/${checkoutId}/${action}`, {});
}

/** The receipts mailed to `to` so far. */
function receiptsTo(to: string) {
  return catcher.mails.filter((m) => m.to.includes(to) && SUBJECT.test(m.subject));
}

/** Waits until `to` has `n` receipts (the mail goes after the answer), or fails after 5 s. */
async function receipts(to: string, n: number) {
  const deadline = Date.now() + 5000;
  while (receiptsTo(to).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return receiptsTo(to);
}

describe('purchase receipt', () => {
  it('mails one receipt per completed purchase, however often it is paid', async () => {
    const m = await registerMember(t.app, 'rcpt');
    const pkg = await publishedPackage(t, { name: 'Receipt Credits', cost: '4.50', amount: '250' });
    const bought = await buy(t, m, pkg, 1);
    const presses = await Promise.all([1, 2, 3].map(() => sandbox(m.token, bought.checkout._id, 'pay')));
    expect(presses.filter((p) => p.json().outcome === 'completed')).toHaveLength(1);
    const [mail, ...more] = await receipts(m.email, 1);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your Starlight receipt: Receipt Credits');
    expect(mail?.text).toContain(`Hello ${m.nickname}`);
    expect(mail?.text).toContain('Paid: 4.50 USD');
    expect(mail?.text).toContain('Credited: 250.00 Credits');
    expect(mail?.text).toContain(`Checkout: ${bought.checkout._id}`);
    expect(mail?.text).toContain('https://starlight.example/userbank?tab=logs&log=checkout');
    // A later press replays nothing: still one receipt.
    expect((await sandbox(m.token, bought.checkout._id, 'pay')).json().outcome).not.toBe('completed');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiptsTo(m.email)).toHaveLength(1);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('mails nothing for a failed payment', async () => {
    const m = await registerMember(t.app, 'rcptf');
    const pkg = await publishedPackage(t, { name: 'Failed Credits' });
    const bought = await buy(t, m, pkg, 1);
    expect((await sandbox(m.token, bought.checkout._id, 'fail')).json().outcome).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiptsTo(m.email)).toEqual([]);
  });
});
