/**
 * Live currencies (DESIGN §1, §5): a currency an admin creates or changes reaches every open
 * socket, signed in or not, from whichever of two server processes on one database took the request
 * (LISTEN/NOTIFY), and on the in-process bus of PGlite.
 */
import type { Currency, WsServerMessage } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { isChangeEvent } from '../src/lib/live-changes.ts';
import { currencyBody } from './bank.helpers.ts';
import { call, makeApp, makePgliteApp, registerMember, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';

/** The last pushed state of currency `id`, if a `currencies` message named it. */
const pushed = (messages: WsServerMessage[], id: number): Currency | undefined =>
  messages
    .flatMap((m) => (m.type === 'currencies' ? m.currencies : []))
    .filter((c) => c.currencyId === id)
    .at(-1);

describe('two server processes on one database', () => {
  const t = useTestApp();
  let b: BuiltApp;
  beforeAll(async () => {
    b = await makeApp();
    await Promise.all([t.app.listen({ port: 0, host: '127.0.0.1' }), b.app.listen({ port: 0, host: '127.0.0.1' })]);
  });
  afterAll(() => b.app.close());

  it('push a created and a modified currency to every socket of both, signed in or not', async () => {
    const a = t.app;
    const member = await registerMember(a, 'curlive');
    const visitorOnA = await LiveSocket.open(a);
    const visitorOnB = await LiveSocket.open(b.app);
    const memberOnB = await LiveSocket.open(b.app);
    memberOnB.send({ type: 'auth', token: member.token });
    await memberOnB.until((ms) => ms.some((m) => m.type === 'auth'));
    const sockets = [visitorOnA, visitorOnB, memberOnB];

    // Created on A: every socket of A and B gets it, whole.
    const created = await call(
      a,
      t.admin.token,
      'POST',
      '/api/bank/createCurrency',
      currencyBody({ name: 'Comet Dust', precision: 3, transferTax: '0.02' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const currency = created.json<{ currency: Currency }>().currency;
    for (const s of sockets) {
      expect(await s.until((ms) => pushed(ms, currency.currencyId))).toEqual(currency);
    }

    // A keeps its list answer for a second: read it now, so the change below must drop it there.
    const listOn = async (app: typeof a) =>
      (await call(app, undefined, 'GET', '/api/bank/currencies')).json<{ currencies: Currency[] }>().currencies;
    expect((await listOn(a)).find((c) => c.currencyId === currency.currencyId)).toEqual(currency);

    // Modified on B: every socket of A and B gets the new state.
    const modified = await call(b.app, t.admin.token, 'POST', '/api/bank/modifyCurrency', {
      currencyId: currency.currencyId,
      name: 'Comet Dust II',
      isFrozen: true,
      frozenNote: 'Paused for an audit',
    });
    expect(modified.statusCode, modified.body).toBe(200);
    const after = modified.json<{ currency: Currency }>().currency;
    expect(after).toMatchObject({ name: 'Comet Dust II', isFrozen: true });
    for (const s of sockets) {
      expect(await s.until((ms) => pushed(ms, currency.currencyId)?.name === 'Comet Dust II' && ms)).toBeTruthy();
      expect(pushed(s.messages, currency.currencyId)).toEqual(after);
    }

    // The list a page refetches agrees with what was pushed, on B and on A (whose kept answer the change dropped).
    expect((await listOn(b.app)).find((c) => c.currencyId === currency.currencyId)).toEqual(after);
    expect((await listOn(a)).find((c) => c.currencyId === currency.currencyId)).toEqual(after);
    for (const s of sockets) s.close();
  });

  it('push nothing for a refused change', async () => {
    const socket = await LiveSocket.open(t.app);
    const res = await call(t.app, t.admin.token, 'POST', '/api/bank/createCurrency', currencyBody({ ticker: 'SD' }));
    expect(res.statusCode).toBe(409);
    socket.send({ type: 'ping' });
    await socket.until((ms) => ms.some((m) => m.type === 'pong'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(socket.messages.filter((m) => m.type === 'currencies')).toEqual([]);
    socket.close();
  });
});

describe('one process on PGlite (the in-process bus)', () => {
  const live = useTestApp({}, { build: makePgliteApp });

  it('pushes a created currency to an open socket', async () => {
    await live.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await LiveSocket.open(live.app);
    const res = await call(
      live.app,
      live.admin.token,
      'POST',
      '/api/bank/createCurrency',
      currencyBody({ name: 'Nebula Salt' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const currency = res.json<{ currency: Currency }>().currency;
    expect(await socket.until((ms) => pushed(ms, currency.currencyId))).toEqual(currency);
    socket.close();
  });
});

describe('change events', () => {
  it('read an event without currencies (from a replica that predates them) as naming none', () => {
    expect(isChangeEvent({ kind: 'changes', pairs: [], users: ['u'] })).toBe(true);
    expect(isChangeEvent({ kind: 'changes', pairs: [], users: [], currencies: [7] })).toBe(true);
    expect(isChangeEvent({ kind: 'changes', pairs: [], users: [], currencies: 7 })).toBe(false);
  });
});
