/**
 * The ledger model: fast-check commands that drive
 * the real API (mint, burn, taxed and untaxed transfers, distributions, withdrawals and deposits settled by
 * the admin, orders of every type and cancels on an exchange pair, an expiry racing a fill, forge processes started, claimed and cancelled, Credits
 * bought through the sandbox and refunded, synth chips (ASC) bought for Credits and opened into ships, items
 * listed on the market, cancelled and bought by concurrent buyers) and a simple in-memory model of every
 * member's balances (ASC and Credits included) and items. After each bank
 * command the balances must equal the model's to the unit; after each exchange command (whose fills the
 * model does not re-derive) the model takes the pair's two currencies from the API, and the book must agree
 * with the ledger's escrow and no member may have traded with themselves. Self-trade prevention (cancel
 * oldest, DESIGN §5) is modelled on the member's own orders: a placement never fills any of them, and
 * cancels (state 2) only orders of the other side crossing its price, no more than its note names
 * (`your resting … order(s) … cancelled to prevent a self-trade`), none without that note. After every
 * command no balance is negative and the audit balances, for every currency (ASC's opened chips count as
 * removed). The chip sale is shared with other test files running at
 * once (chips.test.ts buys it down to nothing), so the model knows its remaining supply only as an upper
 * bound (nothing but buying moves it) and accepts a sold-out 409 whenever a race may explain it. Used by
 * ledger.property.test.ts (make test, about 300 steps) and ledger.soak.ts (make soak, 10,000 steps or more).
 *
 * The model's parts: ledger-model.state.ts (the constants, the model and the checks every command ends
 * with), ledger-model.bank.ts, ledger-model.exchange.ts, ledger-model.order-types.ts, ledger-model.forge.ts,
 * ledger-model.credits.ts and ledger-model.market.ts
 * (the commands of each area, with the arbitraries that make them); here, how often each command is drawn
 * and the setup of each run.
 */
import {
  type BuySynthChipsResponse,
  type Currency,
  type Pair,
  type SynthChipsResponse,
  toDecimalString,
  UNIT,
} from '@starlight/shared';
import fc from 'fast-check';
import { expect } from 'vitest';
import { currencyBody } from '../bank.helpers.ts';
import { call, type Member, mint, registerMember, type TestApp } from '../helpers.ts';
import { bankCommands } from './ledger-model.bank.ts';
import { creditsCommands } from './ledger-model.credits.ts';
import { exchangeCommands } from './ledger-model.exchange.ts';
import { forgeCommands } from './ledger-model.forge.ts';
import { MARKET_ROYALTY, marketCommands } from './ledger-model.market.ts';
import { orderTypeCommands } from './ledger-model.order-types.ts';
import {
  add,
  CHIP_PRICE,
  CREDITS,
  FORGE_INPUT,
  FORGE_OUTPUT,
  MEMBERS,
  type Model,
  modelContext,
  PACKAGE_CREDITS,
  SD,
  SN,
  soldOutLeft,
  text,
} from './ledger-model.state.ts';

export type { Model, ModelStats, Real } from './ledger-model.state.ts';

/**
 * The model's fast-check property over the app of `t`: `maxCommands` commands per run. Returns the
 * property and the stats it fills as it runs.
 */
export function ledgerModel(t: TestApp, maxCommands: number) {
  const context = modelContext(t);
  const { stats } = context;
  const bank = bankCommands(context);
  const exchange = exchangeCommands(context);
  const forge = forgeCommands(context);
  const credits = creditsCommands(context);
  const market = marketCommands(context);
  const orderTypes = orderTypeCommands(context);
  // The order and the repeats are the draw's weights: fast-check picks one of these at random each step.
  const commandArbs = [
    // Mints twice as often: the other commands need something to move.
    bank.mint,
    bank.mint,
    bank.burn,
    bank.transferSD,
    bank.transferSN,
    bank.distribute,
    exchange.placeOrder,
    exchange.selfCross,
    exchange.cancel,
    // Market, IOC, FOK, post-only, stop-limit and good-till-date orders twice, so each kind comes up.
    orderTypes.placeTyped,
    orderTypes.placeTyped,
    orderTypes.expiryRace,
    bank.withdraw,
    bank.deposit,
    forge.start,
    forge.end,
    credits.checkout,
    credits.refund,
    // Chip buys and openings twice each, so that openings often find chips bought before them.
    credits.buyChips,
    credits.buyChips,
    credits.openChips,
    credits.openChips,
    // Listings twice, so that purchases and cancels find open ones.
    market.list,
    market.list,
    market.cancel,
    market.buy,
    market.buy,
  ];

  /** The model's collection (made by the first run), its royalty set, and two items for each of `members`. */
  let marketCollection: string | null = null;
  async function marketSetup(members: Member[]) {
    marketCollection ??= await newMarketCollection();
    const collection = marketCollection;
    const items: Model['market']['items'] = [];
    for (const [owner, m] of members.entries()) {
      for (const name of ['Property Ship', 'Property Relic']) {
        const res = await call(t.app, t.admin.token, 'POST', '/api/inventory/createItem', {
          itemCollection: collection,
          owner: m.nickname,
          name,
        });
        expect(res.statusCode, res.body).toBe(200);
        items.push({ id: res.json<{ item: { _id: string } }>().item._id, owner });
      }
    }
    return { collection, items };
  }

  /** The admin's collection of the model's items, with its royalty. */
  async function newMarketCollection(): Promise<string> {
    const made = await call(t.app, t.admin.token, 'POST', '/api/inventory/createCollection', {
      name: 'Property Items',
      description: 'Items the ledger model trades',
    });
    expect(made.statusCode, made.body).toBe(200);
    const collection = made.json<{ collection: { _id: string } }>().collection._id;
    const royalty = await call(t.app, t.admin.token, 'POST', '/api/inventory/modifyCollection', {
      collectionId: collection,
      royalty: toDecimalString(MARKET_ROYALTY),
    });
    expect(royalty.statusCode, royalty.body).toBe(200);
    return collection;
  }

  let run = 0;
  const property = fc.asyncProperty(fc.commands(commandArbs, { maxCommands }), async (cmds) => {
    run++;
    stats.runs++;
    const setup = async () => {
      const members: Member[] = [];
      for (let i = 0; i < MEMBERS; i++) members.push(await registerMember(t.app, `p${run}x`));
      // A fresh target currency per run, so only this run's members hold it, traded against SN.
      const res = await call(
        t.app,
        t.admin.token,
        'POST',
        '/api/bank/createCurrency',
        // Withdrawable and depositable, with a 5% withdrawal tax that is burned (no collector).
        currencyBody({ name: 'Property Coin', canWithdraw: true, canDeposit: true, withdrawTax: '0.05' }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const target = res.json<{ currency: Currency }>().currency.currencyId;
      const pairRes = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
        buyCurrency: target,
        sellCurrency: SN,
        canBuy: true,
        canSell: true,
        fee: '0.01',
        feeCollector: t.admin.nickname,
      });
      expect(pairRes.statusCode, pairRes.body).toBe(200);
      const pair = pairRes.json<{ pair: Pair }>().pair._id;
      // A recipe turning 2.50 SN into 1.00 of the run's currency (an hour), so forging moves both.
      const recipeRes = await call(t.app, t.admin.token, 'POST', '/api/forge/recipes/create', {
        name: 'Property forge',
        description: 'Turns SN into the run currency',
        timeRequired: 3600,
        input: { currencyId: SN, amount: text(FORGE_INPUT) },
        output: { currencyId: target, amount: text(FORGE_OUTPUT) },
      });
      expect(recipeRes.statusCode, recipeRes.body).toBe(200);
      const recipe = recipeRes.json<{ recipe: { _id: string } }>().recipe._id;
      // A Credits package bought through the sandbox (card provider without settings).
      const pkgRes = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/create', {
        name: 'Property Credits',
        description: 'Credits for the ledger model',
        cost: '1.00',
        amount: text(PACKAGE_CREDITS),
      });
      expect(pkgRes.statusCode, pkgRes.body).toBe(200);
      const pkg = pkgRes.json<{ package: { _id: string } }>().package._id;
      const published = await call(t.app, t.admin.token, 'POST', '/api/checkout/packages/publish', { objectId: pkg });
      expect(published.statusCode, published.body).toBe(200);
      // The synth chip sale (seeded once, shared with every test file).
      const saleRes = await call(t.app, undefined, 'GET', '/api/inventory/synthChips');
      expect(saleRes.statusCode, saleRes.body).toBe(200);
      const sale = saleRes.json<SynthChipsResponse>();
      // The run's item collection (the admin creates it, 10% royalty) and two items for each member.
      const { collection, items } = await marketSetup(members);
      const model: Model = {
        balances: members.map(() => new Map<number, bigint>()),
        target,
        processes: [],
        purchases: [],
        chips: sale.currencyId,
        saleLeft: sale.remaining,
        items: members.map(() => 0),
        market: { items, listings: [], attempts: 0 },
        stops: [],
      };
      // Opening balances, so most commands have something to move: 100 SD and 100 SN each,
      // 1, 2, 3 of the target currency and 500, 1000, 1500 Credits (1 to 3 chips) for the first three
      // members (the fourth holds none).
      const opening: Array<[number, number, bigint]> = members.flatMap((_, i) => [
        [i, SD, 100n * UNIT] as [number, number, bigint],
        [i, SN, 100n * UNIT] as [number, number, bigint],
        ...(i < 3
          ? [
              [i, target, BigInt(i + 1) * UNIT] as [number, number, bigint],
              [i, CREDITS, BigInt(i + 1) * CHIP_PRICE] as [number, number, bigint],
            ]
          : []),
      ]);
      for (const [i, currencyId, units] of opening) {
        await mint(t.app, t.admin, members[i]?.nickname ?? '', currencyId, text(units));
        add(model, i, currencyId, units);
      }
      // The third member buys a chip up front (1000 Credits left), so openings have chips to open from
      // the first command; a sale already sold out by another test file refuses it and nothing changes.
      const first = await call(t.app, members[2]?.token, 'POST', '/api/inventory/buySynthChips', { amount: 1 });
      if (first.statusCode === 200) {
        add(model, 2, CREDITS, -CHIP_PRICE);
        add(model, 2, model.chips, UNIT);
        model.saleLeft = first.json<BuySynthChipsResponse>().remaining;
      } else {
        expect(first.statusCode, first.body).toBe(409);
        expect(soldOutLeft(first.json<{ message: string }>().message), first.body).toBe(0);
        model.saleLeft = 0;
      }
      return { model, real: { members, target, pair, recipe, pkg, collection } };
    };
    await fc.asyncModelRun(setup, cmds);
  });
  return { property, stats };
}
