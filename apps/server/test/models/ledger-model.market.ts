/**
 * The ledger model's marketplace commands (composed by ledger-model.ts; DESIGN §11.5): a member lists one
 * of their items in the run's collection for SN (a listed item cannot be listed again), cancels one of
 * their open listings, and one to three other members buy an open listing at once, each under their own
 * Idempotency-Key: exactly one wins when any of them covers the price (none otherwise), the winner pays
 * the price, the seller receives it less the collection's 10% royalty (rounded up to the cent, to the
 * creator, the admin, whom the model does not follow: the audit counts it) and the item becomes the
 * winner's. After each command every item of the run has the owner the model says, the open listings
 * are the model's, and the ledger checks of every command pass.
 */
import { feeOf, fromNumeric, type Listing } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { pgArray } from '../../src/db/pg-array.ts';
import { call } from '../helpers.ts';
import {
  add,
  CENT,
  type CommandArb,
  held,
  MEMBERS,
  type Model,
  type ModelContext,
  type Real,
  SN,
  text,
  who,
} from './ledger-model.state.ts';

/** The royalty of the run's collection: 10%, as a 10^-9-scaled fraction. */
export const MARKET_ROYALTY = 100_000_000n;

/** The marketplace commands of a model run, as arbitraries. */
export function marketCommands({ t, stats, expectMatches }: ModelContext) {
  /** The owners of the run's items, and their open listings, equal the model's (read from the database). */
  async function expectMarketMatches(m: Model, r: Real): Promise<void> {
    const ids = m.market.items.map((x) => x.id);
    const owners = await t.built.database.db.execute<{ id: string; owner_id: string }>(
      sql`SELECT id, owner_id FROM items WHERE id = ANY(${pgArray(ids)}::text[]) ORDER BY id`,
    );
    const memberIds = r.members.map((x) => x.id);
    expect(
      owners.rows.map((x) => [x.id, memberIds.indexOf(x.owner_id)]),
      'owners of the run items',
    ).toEqual(m.market.items.map((x) => [x.id, x.owner]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    const open = await t.built.database.db.execute<{ id: string }>(
      sql`SELECT id FROM market_listings WHERE item_id = ANY(${pgArray(ids)}::text[]) AND state = 'open' ORDER BY id`,
    );
    expect(
      open.rows.map((x) => x.id),
      'open listings',
    ).toEqual(
      m.market.listings
        .filter((l) => l.open)
        .map((l) => l.id)
        .sort(),
    );
    stats.checks++;
    await expectMatches(m, r);
  }

  /** A member lists the `pick`-th item they hold for `cents` SN; an item already listed is refused. */
  class ListCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly pick: number;
    readonly cents: number;
    constructor(who: number, pick: number, cents: number) {
      this.who = who;
      this.pick = pick;
      this.cents = cents;
    }
    check = (m: Readonly<Model>) => m.market.items.some((x) => x.owner === this.who);
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const mine = m.market.items.filter((x) => x.owner === this.who);
      const item = mine[this.pick % mine.length] as Model['market']['items'][number];
      const price = BigInt(this.cents) * CENT;
      const res = await call(t.app, r.members[this.who]?.token, 'POST', '/api/market/createListing', {
        itemId: item.id,
        currencyId: SN,
        price: text(price),
      });
      if (m.market.listings.some((l) => l.open && l.item === item.id)) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().message).toBe('This item is already listed');
      } else {
        expect(res.statusCode, res.body).toBe(200);
        const id = res.json<{ listing: Listing }>().listing._id;
        m.market.listings.push({ id, item: item.id, seller: this.who, price, open: true });
      }
      await expectMarketMatches(m, r);
    }
    toString = () => `list(${this.who}, #${this.pick}, ${this.cents}c)`;
  }

  /** The seller cancels the `pick`-th open listing: the item is theirs and free again. */
  class CancelCommand implements fc.AsyncCommand<Model, Real> {
    readonly pick: number;
    constructor(pick: number) {
      this.pick = pick;
    }
    check = (m: Readonly<Model>) => m.market.listings.some((l) => l.open);
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const open = m.market.listings.filter((l) => l.open);
      const l = open[this.pick % open.length] as Model['market']['listings'][number];
      const res = await call(t.app, r.members[l.seller]?.token, 'POST', '/api/market/cancelListing', {
        listingId: l.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      l.open = false;
      await expectMarketMatches(m, r);
    }
    toString = () => `cancelListing(#${this.pick})`;
  }

  /**
   * Up to three members other than the seller (`buyers`, as offsets from the seller) buy the `pick`-th
   * open listing at once: one wins if any covers the price, the rest are told it sold or that their funds
   * fall short.
   */
  class BuyCommand implements fc.AsyncCommand<Model, Real> {
    readonly pick: number;
    readonly buyers: number[];
    constructor(pick: number, buyers: number[]) {
      this.pick = pick;
      this.buyers = buyers;
    }
    check = (m: Readonly<Model>) => m.market.listings.some((l) => l.open);
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const open = m.market.listings.filter((l) => l.open);
      const l = open[this.pick % open.length] as Model['market']['listings'][number];
      const buyers = [...new Set(this.buyers.map((o) => (l.seller + o) % MEMBERS))];
      m.market.attempts++;
      const answers = await Promise.all(
        buyers.map((b) =>
          call(
            t.app,
            r.members[b]?.token,
            'POST',
            '/api/market/buy',
            { listingId: l.id },
            {
              'idempotency-key': `mk-${l.id}-${b}-${m.market.attempts}`,
            },
          ),
        ),
      );
      const won = buyers.filter((_, i) => answers[i]?.statusCode === 200);
      for (const res of answers) {
        if (res.statusCode === 200) continue;
        expect(res.statusCode, res.body).toBe(409);
        expect(['This listing has been sold', 'Insufficient funds']).toContain(res.json().message);
      }
      const covered = buyers.filter((b) => held(m, b, SN) >= l.price);
      expect(won.length, 'one buyer wins when any covers the price').toBe(covered.length > 0 ? 1 : 0);
      const winner = won[0];
      if (winner !== undefined) {
        expect(covered).toContain(winner);
        const royalty = feeOf(l.price, MARKET_ROYALTY, 2);
        add(m, winner, SN, -l.price);
        add(m, l.seller, SN, l.price - royalty);
        l.open = false;
        const item = m.market.items.find((x) => x.id === l.item);
        if (item) item.owner = winner;
        const sold = answers.find((a) => a.statusCode === 200)?.json<{ listing: Listing }>().listing;
        expect(sold && fromNumeric(sold.price)).toBe(l.price);
        expect(sold?.state).toBe('sold');
      }
      await expectMarketMatches(m, r);
    }
    toString = () => `buy(#${this.pick}, by +${this.buyers.join('/+')})`;
  }

  const list: CommandArb = fc
    .tuple(who, fc.nat({ max: 5 }), fc.integer({ min: 1, max: 8000 }))
    .map(([w, p, c]) => new ListCommand(w, p, c));
  const cancel: CommandArb = fc.nat({ max: 10 }).map((p) => new CancelCommand(p));
  const buy: CommandArb = fc
    .tuple(
      fc.nat({ max: 10 }),
      fc.uniqueArray(fc.integer({ min: 1, max: MEMBERS - 1 }), { minLength: 1, maxLength: 3 }),
    )
    .map(([p, b]) => new BuyCommand(p, b));
  return { list, cancel, buy };
}
