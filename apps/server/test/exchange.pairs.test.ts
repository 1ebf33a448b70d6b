/** Pairs through the API (SPEC §7 Exchange, DESIGN §5): creation, listing, changes, deletion with refunds. */
import type { Pair, PairsResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { createMarket, exchangeCalls, fundedMember, ordersOf, place, placeOk } from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { modify, adminLogs } = exchangeCalls(t);

describe('pairs', () => {
  it('createPair composes the name, keeps the fee as a fraction and the collector by nickname', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, {
      fee: 0.0025,
      feeCollector: collector.nickname,
      name: 'ignored name',
    });
    expect(m.pair).toMatchObject({
      name: `${m.base.name} → ${m.quote.name}`,
      buyCurrency: m.base.currencyId,
      sellCurrency: m.quote.currencyId,
      canBuy: true,
      canSell: true,
      visible: true,
      frozen: false,
      frozenNote: '',
      fee: '0.0025',
      feeCollector: collector.nickname,
    });
    expect(m.pair._id).toMatch(/^[0-9a-f]{24}$/);
    expect(await adminLogs(20, m.pair._id)).toHaveLength(1);
  });

  it('createPair refuses members, visitors, bad currencies, duplicates, unknown collectors and bad fees', async () => {
    const m = await createMarket(t.app, t.admin);
    const member = await registerMember(t.app);
    const body = { buyCurrency: m.base.currencyId, sellCurrency: m.quote.currencyId, canBuy: true, canSell: true };
    const create = (who: Member | undefined, b: Record<string, unknown>) =>
      call(t.app, who?.token, 'POST', '/api/cex/createPair', b);
    expect((await create(undefined, body)).statusCode).toBe(401);
    expect((await create(member, body)).statusCode).toBe(403);
    const dup = await create(t.admin, body);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('This pair already exists');
    expect((await create(t.admin, { ...body, sellCurrency: 999_999 })).statusCode).toBe(404);
    const same = await create(t.admin, { ...body, sellCurrency: m.base.currencyId });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('"sellCurrency" contains an invalid value');
    const reverse = { ...body, buyCurrency: m.quote.currencyId, sellCurrency: m.base.currencyId };
    const badCollector = await create(t.admin, { ...reverse, feeCollector: 'nobody0000000' });
    expect(badCollector.statusCode).toBe(400);
    expect(badCollector.json().message).toBe('"feeCollector" contains an invalid value');
    expect((await create(t.admin, { ...reverse, fee: 1.5 })).statusCode).toBe(400);
    expect((await create(t.admin, { ...reverse, fee: -0.1 })).statusCode).toBe(400);
    expect((await create(t.admin, { ...reverse, role: 'x' })).json().message).toBe('"role" is not allowed');
    expect((await create(t.admin, { buyCurrency: 1 })).json().message).toBe('"sellCurrency" is required');
    // The reverse direction is another pair.
    expect((await create(t.admin, reverse)).statusCode).toBe(200);
  });

  it('getPairs shows visible pairs to everyone and hidden ones to admins only', async () => {
    const shown = await createMarket(t.app, t.admin);
    const hidden = await createMarket(t.app, t.admin, { visible: false });
    const member = await registerMember(t.app);
    for (const who of [undefined, member]) {
      const res = await call(t.app, who?.token, 'GET', '/api/cex/getPairs');
      expect(res.statusCode).toBe(200);
      const body = res.json<PairsResponse>();
      const ids = body.pairs.map((p) => p._id);
      expect(ids).toContain(shown.pair._id);
      expect(ids).not.toContain(hidden.pair._id);
      expect(body.message).toBe(`Got ${body.pairs.length} pair(s)`);
    }
    const asAdmin = await call(t.app, t.admin.token, 'GET', '/api/cex/getPairs');
    expect(asAdmin.json<PairsResponse>().pairs.map((p) => p._id)).toEqual(
      expect.arrayContaining([shown.pair._id, hidden.pair._id]),
    );
    // A bad token on a public route is a visitor, not an error.
    const bad = await call(t.app, 'not-a-token', 'GET', '/api/cex/getPairs');
    expect(bad.statusCode).toBe(200);
    expect(bad.json<PairsResponse>().pairs.map((p) => p._id)).not.toContain(hidden.pair._id);
    // Hidden pairs are not found for members anywhere else either.
    const trader = await fundedMember(t.app, t.admin, { [hidden.quote.currencyId]: '10' });
    expect((await place(t.app, trader, hidden.pair._id, true, 1, 1)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: hidden.pair._id })).statusCode).toBe(
      404,
    );
    expect((await call(t.app, t.admin.token, 'POST', '/api/cex/getOrders', { pair: hidden.pair._id })).statusCode).toBe(
      200,
    );
  });

  it('modifyPair changes flags, fee and collector with "Pair modified" and an admin log row', async () => {
    const m = await createMarket(t.app, t.admin);
    const member = await registerMember(t.app);
    const collector = await registerMember(t.app, 'fee');
    const body = { pairId: m.pair._id, canBuy: false, fee: '0.5', feeCollector: collector.nickname, visible: false };
    expect((await modify(undefined, body)).statusCode).toBe(401);
    expect((await modify(member, body)).statusCode).toBe(403);
    expect((await modify(t.admin, { ...body, pairId: 'f'.repeat(24) })).statusCode).toBe(404);
    const res = await modify(t.admin, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Pair modified');
    expect(res.json<{ pair: Pair }>().pair).toMatchObject({
      canBuy: false,
      canSell: true,
      fee: '0.5',
      feeCollector: collector.nickname,
      visible: false,
      name: m.pair.name,
    });
    const cleared = await modify(t.admin, { pairId: m.pair._id, feeCollector: '' });
    expect(cleared.json<{ pair: Pair }>().pair.feeCollector).toBe('');
    expect(await adminLogs(21, 'Modified trade pair')).not.toHaveLength(0);
  });

  it('deletePair cancels and refunds the open orders first, then the pair is gone', async () => {
    const m = await createMarket(t.app, t.admin);
    const buyer = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '100' });
    const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '100' });
    await placeOk(t.app, buyer, m.pair._id, true, '10', '2.5');
    await placeOk(t.app, seller, m.pair._id, false, '4', '3');
    await placeOk(t.app, seller, m.pair._id, false, '1', '2.5');
    expect(await balanceOf(t.app, buyer, m.quote.currencyId)).toBe('75');
    const member = await registerMember(t.app);
    const del = (who: Member | undefined) =>
      call(t.app, who?.token, 'POST', '/api/cex/deletePair', { pairId: m.pair._id });
    expect((await del(undefined)).statusCode).toBe(401);
    expect((await del(member)).statusCode).toBe(403);
    const res = await del(t.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ cancelledOrders: 2, message: 'Pair deleted (2 open orders cancelled)' });
    expect(await balanceOf(t.app, buyer, m.quote.currencyId)).toBe('97.5');
    expect(await balanceOf(t.app, buyer, m.base.currencyId)).toBe('1');
    expect(await balanceOf(t.app, seller, m.base.currencyId)).toBe('99');
    expect(await balanceOf(t.app, seller, m.quote.currencyId)).toBe('2.5');
    expect((await ordersOf(t.app, buyer)).map((o) => [o.state, o.filledAmount])).toEqual([[2, '1.00']]);
    const pairs = await call(t.app, t.admin.token, 'GET', '/api/cex/getPairs');
    expect(pairs.json<PairsResponse>().pairs.map((p) => p._id)).not.toContain(m.pair._id);
    expect((await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: m.pair._id })).statusCode).toBe(404);
    expect((await place(t.app, buyer, m.pair._id, true, 1, 1)).statusCode).toBe(404);
    expect((await del(t.admin)).statusCode).toBe(404);
    expect(await adminLogs(22, m.pair._id)).toHaveLength(1);
    // The same currencies may be paired again.
    const again = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
      buyCurrency: m.base.currencyId,
      sellCurrency: m.quote.currencyId,
      canBuy: true,
      canSell: true,
    });
    expect(again.statusCode).toBe(200);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
