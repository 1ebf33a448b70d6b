/** Helpers of the checkout tests: a published package and a member's purchase of it. */
import type { BuyPackageResponse, CheckoutPackage, CheckoutsResponse } from '@starlight/shared';
import { expect } from 'vitest';
import { call, type Member, type TestApp } from './helpers.ts';

/** Creates and publishes a package (cost 9.99 USD, 1,000 Credits unless overridden) as the admin. */
export async function publishedPackage(t: TestApp, overrides: Record<string, unknown> = {}): Promise<CheckoutPackage> {
  const created = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
    name: 'Starter Credits',
    description: 'A thousand Credits to start with',
    cost: '9.99',
    amount: '1000',
    currency: 3,
    ...overrides,
  });
  expect(created.statusCode, created.body).toBe(200);
  const pkg = created.json<{ package: CheckoutPackage }>().package;
  const published = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/publish', { objectId: pkg._id });
  expect(published.statusCode, published.body).toBe(200);
  return published.json<{ package: CheckoutPackage }>().package;
}

/** `member` buys `pkg` through provider `providerId`; expects success. */
export async function buy(
  t: TestApp,
  member: Member,
  pkg: CheckoutPackage,
  providerId: 1 | 2,
): Promise<BuyPackageResponse> {
  const res = await call(t.app, member.token, 'POST', '/api/checkout/buyPackage', { packageId: pkg._id, providerId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BuyPackageResponse>();
}

/** The member's checkout `id` as getTransactions shows it. */
export async function checkoutOf(t: TestApp, member: Member, id: string) {
  const res = await call(t.app, member.token, 'POST', '/api/checkout/getTransactions', {
    paging: { limit: 50, page: 1 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CheckoutsResponse>().transactions.find((c) => c._id === id);
}
