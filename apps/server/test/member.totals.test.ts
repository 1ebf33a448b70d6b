/**
 * A member's own list totals are kept until their next change (lib/kept-totals.ts `startMemberTotals`):
 * their items (all, by collection, grouped by name), forge processes and checkouts. What a
 * member must never notice: a new item of theirs (a creator's, or ships from opened chips), a process they
 * start, a checkout they open and its provider's events count at once on the server that wrote them and
 * within the live feed's lag on another server; each
 * list, filter and page start keeps its own total; another member's totals are their own. That the total
 * is kept, not counted again, shows in a row written behind the server's back: it counts only from the
 * member's next change on.
 */
import {
  CHECKOUT_STATE,
  type CheckoutsResponse,
  type Currency,
  type ForgeProcessesResponse,
  type GroupedItemsResponse,
  type ItemsResponse,
  type OpenSynthChipsResponse,
  type OwnCollection,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { buy, publishedPackage } from './checkout.helpers.ts';
import { forgeCalls, forgeCurrencies } from './forge.helpers.ts';
import {
  call,
  eventually,
  expectLedgerBalanced,
  type Member,
  makeApp,
  makeAppOnOwnDatabase,
  mint,
  registerMember,
  useTestApp,
  withRole,
} from './helpers.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

// A database of its own: opening chips needs chips for sale, and other files sell the shared sale out.
const OWN = 'member_totals';
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(OWN) });
const CREDITS = 3;

let b: BuiltApp;
beforeAll(async () => {
  b = await makeApp({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${OWN}`) });
});
afterAll(() => b.app.close());

/** The total `m` is shown of `path`'s list with `body` (plus paging from `page`, 5 a page). */
async function total(
  app: BuiltApp['app'],
  m: Member,
  path: string,
  body: Record<string, unknown> = {},
  page = 1,
): Promise<number> {
  const res = await call(app, m.token, 'POST', path, { ...body, paging: { page, limit: 5 } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ItemsResponse | GroupedItemsResponse | ForgeProcessesResponse | CheckoutsResponse>().total;
}

describe("a member's kept item totals", () => {
  let creator: Member;
  let holder: Member;
  let other: Member;
  let fleet: OwnCollection;
  const own = (app: BuiltApp['app'], m: Member, page = 1) => total(app, m, '/api/inventory/getUserItems', {}, page);
  const inFleet = (app: BuiltApp['app'], m: Member) =>
    total(app, m, '/api/inventory/getUserItems', { filters: { itemCollection: fleet._id } });
  const grouped = (app: BuiltApp['app'], m: Member) =>
    total(app, m, '/api/inventory/getUserItemsGrouped', { filters: { itemCollection: fleet._id } });

  async function addItem(app: BuiltApp['app'], to: Member, name: string): Promise<void> {
    const res = await call(app, creator.token, 'POST', '/api/inventory/createItem', {
      itemCollection: fleet._id,
      owner: to.nickname,
      name,
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  beforeAll(async () => {
    creator = await withRole(t.built, await registerMember(t.app, 'mtmaker'), 'creator');
    holder = await registerMember(t.app, 'mtholder');
    other = await registerMember(t.app, 'mtother');
    const res = await call(t.app, creator.token, 'POST', '/api/inventory/createCollection', { name: 'Own Fleet' });
    expect(res.statusCode, res.body).toBe(200);
    fleet = res.json<{ collection: OwnCollection }>().collection;
    await addItem(t.app, holder, 'Skiff');
    await addItem(t.app, holder, 'Skiff');
    await addItem(t.app, other, 'Barge');
  });

  it("count a creator's new item at once where it was added and soon on another server, each list its own", async () => {
    // Both servers answer (and keep) each list's total; page 2 has its own.
    for (const app of [t.app, b.app]) {
      expect(await own(app, holder)).toBe(2);
      expect(await inFleet(app, holder)).toBe(2);
      expect(await grouped(app, holder)).toBe(1);
      expect(await own(app, other)).toBe(1);
    }
    expect(await own(t.app, holder, 2)).toBe(2);

    // Added on A for the holder: A counts it at once in every list and page; B within the feed's lag.
    await addItem(t.app, holder, 'Corvette');
    expect(await own(t.app, holder)).toBe(3);
    expect(await own(t.app, holder, 2)).toBe(3);
    expect(await inFleet(t.app, holder)).toBe(3);
    expect(await grouped(t.app, holder)).toBe(2);
    expect(
      await eventually(
        () => own(b.app, holder),
        (n) => n === 3,
      ),
    ).toBe(3);
    expect(
      await eventually(
        () => grouped(b.app, holder),
        (n) => n === 2,
      ),
    ).toBe(2);
    // The other member's totals are theirs alone.
    expect(await own(t.app, other)).toBe(1);

    // Added on B: B at once, A soon.
    await addItem(b.app, holder, 'Corvette');
    expect(await own(b.app, holder)).toBe(4);
    expect(
      await eventually(
        () => own(t.app, holder),
        (n) => n === 4,
      ),
    ).toBe(4);
  });

  it('are kept: a row written behind the server counts from the next change of the member on', async () => {
    const quiet = await registerMember(t.app, 'mtquiet');
    await addItem(t.app, quiet, 'Skiff');
    // The change's own echo on the bus drops the kept totals once more: let it pass before keeping one.
    expect(
      await eventually(
        () => own(b.app, quiet),
        (n) => n === 1,
      ),
    ).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(await own(t.app, quiet)).toBe(1);
    await t.built.database.db.execute(sql`
      INSERT INTO items (id, collection_id, owner_id, name, description, img_url, metadata, variabledata, hiddendata)
      SELECT substr(md5(random()::text), 1, 24), ${fleet._id}, id, 'Stowaway', '', '', '{}', '{}', '{}'
      FROM users WHERE nickname = ${quiet.nickname}`);
    expect(await own(t.app, quiet)).toBe(1);
    await addItem(t.app, quiet, 'Skiff');
    expect(await own(t.app, quiet)).toBe(3);
  });

  it('count the ships of opened chips at once', async () => {
    await mint(t.app, t.admin, holder.nickname, CREDITS, '500');
    const bought = await call(t.app, holder.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 });
    expect(bought.statusCode, bought.body).toBe(200);
    const before = await own(t.app, holder);
    const opened = await call(t.app, holder.token, 'POST', '/api/inventory/openSynthChips', { amount: 1 });
    expect(opened.statusCode, opened.body).toBe(200);
    const ships = opened.json<OpenSynthChipsResponse>().createdItems.length;
    expect(ships).toBeGreaterThan(0);
    expect(await own(t.app, holder)).toBe(before + ships);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe("a member's kept forge process totals", () => {
  let ore: Currency;
  let ingot: Currency;
  const { createRecipe, started, member } = forgeCalls(t, () => ({ ore, ingot }));
  const processes = (app: BuiltApp['app'], m: Member, page = 1) =>
    total(app, m, '/api/forge/getForgeProcesses', {}, page);

  beforeAll(async () => {
    ({ ore, ingot } = await forgeCurrencies(t));
  });

  it('count a started process at once where it started and soon on another server, the member alone', async () => {
    const recipe = await createRecipe();
    const forger = await member('100');
    const bystander = await member('100');
    await started(forger, recipe._id, 1);
    for (const app of [t.app, b.app]) {
      expect(await processes(app, forger)).toBe(1);
      expect(await processes(app, bystander)).toBe(0);
    }
    expect(await processes(t.app, forger, 2)).toBe(1);

    await started(forger, recipe._id, 2);
    expect(await processes(t.app, forger)).toBe(2);
    expect(await processes(t.app, forger, 2)).toBe(2);
    expect(await processes(t.app, bystander)).toBe(0);
    expect(
      await eventually(
        () => processes(b.app, forger),
        (n) => n === 2,
      ),
    ).toBe(2);
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe("a member's kept checkout totals", () => {
  const checkouts = (app: BuiltApp['app'], m: Member, state?: number) =>
    total(app, m, '/api/checkout/getTransactions', state === undefined ? {} : { filters: { state } });

  it('count a new checkout and a state its provider sets at once where written and soon on another server', async () => {
    const pkg = await publishedPackage(t);
    const buyer = await registerMember(t.app, 'mtbuyer');
    const bystander = await registerMember(t.app, 'mtbystand');
    const first = await buy(t, buyer, pkg, 1);
    // Each change's own echo on the bus drops the kept totals once more: let it pass before keeping them.
    await new Promise((r) => setTimeout(r, 250));
    for (const app of [t.app, b.app]) {
      expect(await checkouts(app, buyer)).toBe(1);
      expect(await checkouts(app, buyer, CHECKOUT_STATE.Cancelled)).toBe(0);
      expect(await checkouts(app, bystander)).toBe(0);
    }

    // The provider's failure cancels it: the state's total counts it at once, the other server soon.
    const failed = await call(t.app, buyer.token, 'POST', `/api/checkout/sandbox/${first.checkout._id}/fail`, {});
    expect(failed.statusCode, failed.body).toBe(200);
    expect(await checkouts(t.app, buyer, CHECKOUT_STATE.Cancelled)).toBe(1);
    expect(await checkouts(t.app, buyer)).toBe(1);
    expect(
      await eventually(
        () => checkouts(b.app, buyer, CHECKOUT_STATE.Cancelled),
        (n) => n === 1,
      ),
    ).toBe(1);

    // A checkout opened on B: B counts it at once, A soon; the bystander's stay their own.
    await new Promise((r) => setTimeout(r, 250));
    expect(await checkouts(b.app, buyer)).toBe(1);
    const opened = await call(b.app, buyer.token, 'POST', '/api/checkout/buyPackage', {
      packageId: pkg._id,
      providerId: 1,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await checkouts(b.app, buyer)).toBe(2);
    expect(
      await eventually(
        () => checkouts(t.app, buyer),
        (n) => n === 2,
      ),
    ).toBe(2);
    expect(await checkouts(t.app, bystander)).toBe(0);
  });
});
