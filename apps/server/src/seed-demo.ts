/**
 * The demo community of a first start (DESIGN §2): a few members with balances, a trading pair with
 * resting orders on both sides and trades, published Credits packages, an active forge recipe and a
 * creator's collection with items, so every member flow has something to try before an operator fills
 * a console form. Seeded on a fresh embedded database unless `SEED_DEMO=off`, on PostgreSQL only with
 * `SEED_DEMO=on`. Money enters through the ledger (mints, category 10) and the exchange places the
 * orders, so the trades are ledger entries like any other and the conservation audit holds.
 * Runs once: in one transaction under an advisory lock (several replicas may start together), and not
 * when a demo member exists already.
 */
import { randomBytes } from 'node:crypto';
import { fromNumeric, type PlaceOrderInput, TX_CATEGORY, wholeUnits } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { Config } from './config.ts';
import type { Db, DbOrTx, Tx } from './db/client.ts';
import { inTransaction } from './db/transaction.ts';
import { LiveChanges } from './lib/live-changes.ts';
import { hashPassword } from './lib/passwords.ts';
import { findUserByNickname, insertUser } from './modules/accounts/accounts.queries.ts';
import { insertPackage, updatePackage } from './modules/checkout/packages.queries.ts';
import { placeOrders } from './modules/exchange/orders.service.ts';
import { insertPair } from './modules/exchange/pairs.queries.ts';
import { insertRecipe } from './modules/forge/recipes.queries.ts';
import { insertCollection, insertItems } from './modules/items/items.public.ts';
import { postEntries } from './modules/ledger/ledger.public.ts';
import {
  DEMO_COLLECTION,
  DEMO_MEMBERS,
  DEMO_ORDERS,
  DEMO_PACKAGES,
  DEMO_RECIPE,
  type DemoNick,
} from './seed-demo.data.ts';

/** The demo members' password on the embedded database, printed in the start banner (README). */
export const DEMO_PASSWORD = 'Demo-Starlight-1';

/** Stardust, Starnote: the seeded currencies the demo pair trades (Starnote bought, paid in Stardust). */
const SD = 1;
const SN = 2;

export interface DemoSeed {
  /** The demo members' nicknames, the creator last. */
  nicknames: string[];
  /** Set when this start seeded them: their password (the fixed one on the embedded database). */
  password?: string;
}

/**
 * Whether the demo community concerns this start at all: `SEED_DEMO=on`, or unset on the embedded
 * database (no `DATABASE_URL`). Otherwise no lookup is made and the banner says nothing of it.
 */
export function demoApplies(config: Config): boolean {
  return config.SEED_DEMO === 'on' || (config.SEED_DEMO === undefined && !config.DATABASE_URL);
}

/**
 * Whether this start should make the demo community: `SEED_DEMO=on` always, `off` never; unset, only
 * on the embedded database (no `DATABASE_URL`) that this very start created (`fresh`).
 */
export function wantsDemo(config: Config, fresh: boolean): boolean {
  if (config.SEED_DEMO) return config.SEED_DEMO === 'on';
  return !config.DATABASE_URL && fresh;
}

/**
 * Seeds the demo community when `seedNow` and no demo member exists yet (DESIGN §2). Answers the demo
 * members (with their password when this call made them), or null when there is no demo community.
 * `adminId` collects the pair's fees. Several processes may call it at once: one seeds, the others wait
 * for it under the lock and find the members.
 */
export async function seedDemo(db: Db, config: Config, adminId: string, seedNow: boolean): Promise<DemoSeed | null> {
  const nicknames = DEMO_MEMBERS.map((m) => m.nickname);
  const found = await demoState(db);
  if (found === 'taken' && config.SEED_DEMO === 'on') {
    console.warn(
      `SEED_DEMO=on: no demo community, a member already has one of its nicknames (${nicknames.join(', ')})`,
    );
  }
  if (found !== 'none' || !seedNow) return found === 'demo' ? { nicknames } : null;
  const password = config.DATABASE_URL ? `Demo-${randomBytes(9).toString('base64url')}7a!` : DEMO_PASSWORD;
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('seed:demo'))`);
    const now = await demoState(tx);
    if (now !== 'none') return now === 'demo' ? { nicknames } : null;
    const ids = new Map<DemoNick, string>();
    for (const m of DEMO_MEMBERS) {
      const row = await insertUser(tx, {
        nickname: m.nickname,
        email: demoEmail(m.nickname),
        passwordHash,
        role: m.role,
        isEmailVerified: true,
      });
      ids.set(m.nickname, row.id);
    }
    const idOf = (nick: DemoNick) => ids.get(nick) as string;
    await mintHoldings(tx, idOf);
    await seedMarket(tx, idOf, adminId);
    await seedCatalogue(tx, idOf);
    return { nicknames, password };
  });
}

const demoEmail = (nickname: string) => `${nickname}@demo.starlight.local`;

/**
 * Whether the demo members exist (`demo`: the first of them, with its demo e-mail), one of their
 * nicknames belongs to someone else (`taken`: no demo community then), or neither (`none`).
 */
async function demoState(db: DbOrTx): Promise<'demo' | 'taken' | 'none'> {
  for (const [i, { nickname }] of DEMO_MEMBERS.entries()) {
    const row = await findUserByNickname(db, nickname);
    if (row) return i === 0 && row.email === demoEmail(nickname) ? 'demo' : 'taken';
  }
  return 'none';
}

/** Each member's starting balances, minted through the ledger (category 10). */
async function mintHoldings(tx: Tx, idOf: (nick: DemoNick) => string): Promise<void> {
  const entries = DEMO_MEMBERS.flatMap((m) =>
    Object.entries(m.holdings).map(([currencyId, units]) => ({
      category: TX_CATEGORY.Mint,
      currencyId: Number(currencyId),
      amount: wholeUnits(units),
      executorId: null,
      senderId: null,
      recipientId: idOf(m.nickname),
      note: 'Demo community: starting balance',
    })),
  );
  await postEntries(tx, entries, null);
}

/**
 * The Starnote/Stardust pair (a 0.2% fee to the admin) and the demo orders, placed in order by the
 * exchange itself: the later ones cross the earlier ones, so the book keeps both sides and has trades.
 */
async function seedMarket(tx: Tx, idOf: (nick: DemoNick) => string, adminId: string): Promise<void> {
  const pair = await insertPair(tx, {
    buyCurrency: SN,
    sellCurrency: SD,
    canBuy: true,
    canSell: true,
    visible: true,
    fee: fromNumeric('0.002'),
    makerFee: fromNumeric('0.002'),
    takerFee: fromNumeric('0.002'),
    feeCollectorId: adminId,
  });
  const roleOf = new Map(DEMO_MEMBERS.map((m) => [m.nickname, m.role]));
  const jobs = DEMO_ORDERS.map((o) => ({
    member: { id: idOf(o.by), nickname: o.by, role: roleOf.get(o.by) as string },
    input: {
      pair,
      buySide: o.buy,
      initialAmount: fromNumeric(o.amount),
      price: fromNumeric(o.price),
      type: 'limit',
      timeInForce: 'GTC',
      postOnly: false,
    } satisfies PlaceOrderInput,
  }));
  const outcomes = await placeOrders(tx, jobs, new LiveChanges());
  for (const o of outcomes) if (!o.ok) throw o.error;
}

/** The published Credits packages, the active recipe and the creator's collection with its items. */
async function seedCatalogue(tx: Tx, idOf: (nick: DemoNick) => string): Promise<void> {
  for (const p of DEMO_PACKAGES) {
    const id = await insertPackage(tx, {
      name: p.name,
      description: p.description,
      imgUrl: '',
      cost: p.cost,
      amount: p.credits,
      items: [],
      active: true,
    });
    await updatePackage(tx, id, 'publish');
  }
  await insertRecipe(tx, {
    ...DEMO_RECIPE,
    inputCurrencyId: SD,
    outputCurrencyId: SN,
    imgUrl: '',
    active: true,
  });
  const collectionId = await insertCollection(tx, {
    name: DEMO_COLLECTION.name,
    description: DEMO_COLLECTION.description,
    imgUrl: '',
    creatorId: idOf(DEMO_COLLECTION.creator),
    redirectUrls: [],
    cancelUrl: '',
  });
  await insertItems(
    tx,
    DEMO_COLLECTION.items.map((item) => ({
      collectionId,
      ownerId: idOf(item.owner),
      name: item.name,
      description: item.description,
      imgUrl: '',
      metadata: { class: item.kind },
      variabledata: {},
      hiddendata: {},
    })),
  );
}
