/**
 * The leaderboard in a browser, desktop and phone: a visitor sees the ranking and
 * `Log in to see where you rank!`; a member sees their rank and balance and the holders around them;
 * a private member is shown as Anonymous and their nickname appears nowhere on the page.
 */
import { expect, test } from '@playwright/test';
import {
  adminSignIn,
  expectNoSeriousA11yViolations,
  newPage,
  registerMember,
  storeSession,
  uniqueNick,
} from './fixtures.ts';

const SN = 2;

test('ranks members, shows my rank, hides a private member', async ({ browser, isMobile, request }) => {
  const auth = { authorization: `Bearer ${await adminSignIn(request)}` };
  const mint = async (nick: string, amount: string) => {
    const res = await request.post('/api/bank/mint', {
      headers: auth,
      data: { recipientNickName: nick, currencyId: SN, amount, note: 'leaderboard test' },
    });
    expect(res.ok(), await res.text()).toBe(true);
  };
  // Amounts of this run alone (desktop and phone share the database): grouped as the page shows them.
  const seed = Date.now() % 100_000;
  const [big, second] = [90_000_000 + seed, 80_000_000 + seed];
  const shown = (n: number) => `${n.toLocaleString('en-US')}.00`;
  const privateNick = uniqueNick('hidden');
  const hidden = await registerMember(request, privateNick);
  await mint(privateNick, String(big));
  const anon = await request.post('/api/user/updateProfile', {
    headers: { authorization: `Bearer ${hidden.token}` },
    data: { isAnonymous: true },
  });
  expect(anon.ok(), await anon.text()).toBe(true);
  const nick = uniqueNick('ranked');
  const member = await registerMember(request, nick);
  await mint(nick, String(second));

  // The ranking is kept by a job that follows the ledger every second: wait until a
  // visitor's answer has both mints before opening the page.
  await expect
    .poll(async () => {
      const res = await request.post('/api/user/leaderboard', { data: { currencyId: SN } });
      const amounts = ((await res.json()) as { leaders: Array<{ amount: string }> }).leaders.map((l) => l.amount);
      return [big, second].every((n) => amounts.includes(`${n}.00`));
    })
    .toBe(true);

  // A visitor: the ranking and the sign-in prompt; the private member is Anonymous.
  const visitor = await newPage(browser, isMobile);
  await visitor.goto('/leaderboard?currency=2');
  await expect(visitor.getByRole('tab', { name: 'SN', selected: true })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Log in to see where you rank!' })).toBeVisible();
  const top = visitor.getByRole('table', { name: 'Top SN holders' });
  await expect(top.getByRole('row').filter({ hasText: shown(big) })).toContainText('Anonymous');
  await expect(top.getByRole('row').filter({ hasText: shown(second) })).toContainText(nick);
  await expect(visitor.getByText(privateNick)).toHaveCount(0);
  await expectNoSeriousA11yViolations(visitor);

  // The member: their rank and balance as the API ranks them, and the holders around them.
  const api = await request.post('/api/user/leaderboard', {
    headers: { authorization: `Bearer ${member.token}` },
    data: { currencyId: SN },
  });
  const { position } = (await api.json()) as { position: number };
  const page = await newPage(browser, isMobile);
  await storeSession(page, member);
  await page.goto('/leaderboard');
  await page.getByRole('tab', { name: 'SN' }).click();
  await expect(page).toHaveURL(/currency=2/);
  await expect(page.getByTestId('own-rank')).toHaveText(`#${position}`);
  await expect(page.getByTestId('own-balance')).toHaveText(`${shown(second)} SN`);
  const around = page.getByRole('table', { name: 'Around you' });
  await expect(around.getByRole('row', { name: new RegExp(`${nick} \\(you\\)`) })).toBeVisible();
  await expect(page.getByText(privateNick)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('a refused board says so in words, not the field the server named', async ({ browser, isMobile }, info) => {
  const visitor = await newPage(browser, isMobile);
  // The server refuses the currency as it refuses an invalid one (SPEC §8 validation message).
  await visitor.route('**/api/user/leaderboard', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        message: '"currencyId" contains an invalid value',
        errors: [{ field: 'currencyId', message: '"currencyId" contains an invalid value' }],
      }),
    }),
  );
  await visitor.goto('/leaderboard?currency=3');
  const alert = visitor.getByRole('alert').filter({ hasText: 'Could not load the leaderboard' });
  await expect(alert).toContainText('This currency has no leaderboard. Choose another tab.');
  await expect(visitor.getByText(/currencyId/)).toHaveCount(0);
  await visitor.screenshot({ path: info.outputPath('leaderboard-refused.png'), fullPage: true });
});
