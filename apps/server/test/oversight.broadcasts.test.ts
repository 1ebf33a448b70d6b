/**
 * The admin console's list of broadcasts sent (DESIGN §11.3, `POST /api/audit/broadcasts`): newest first,
 * paged, with the total; the alert level's changes (which share the table) are not listed; admins only;
 * bad paging refused. On a database of its own, so other files' broadcasts do not count.
 */
import type { BroadcastsResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../src/http/access.ts';
import { call, makeAppOnOwnDatabase, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp({}, { build: () => makeAppOnOwnDatabase('broadcasts') });

function sent(body: Record<string, unknown>, token = t.admin.token) {
  return call(t.app, token, 'POST', '/api/audit/broadcasts', body);
}
async function send(body: Record<string, unknown>) {
  const res = await call(t.app, t.admin.token, 'POST', '/api/audit/broadcast', body);
  expect(res.statusCode, res.body).toBe(200);
}

describe('the broadcasts sent', () => {
  it('lists them newest first, a page at a time, without the alert level changes', async () => {
    const empty = await sent({ paging: { limit: 5, page: 1 } });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ broadcasts: [], total: 0, message: 'OK' });

    for (let i = 1; i <= 6; i++) await send({ title: `News ${i}`, body: `Body ${i}` });
    await send({ title: 'Creators', body: 'New tools', link: '/creator?tab=items', role: 'creator' });
    const level = await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', {
      defconLvl: 4,
      defconMsg: 'Withdrawals paused',
    });
    expect(level.statusCode, level.body).toBe(200);

    const first = (await sent({ paging: { limit: 5, page: 1 } })).json<BroadcastsResponse>();
    expect(first.total).toBe(7);
    expect(first.broadcasts.map((b) => b.title)).toEqual(['Creators', 'News 6', 'News 5', 'News 4', 'News 3']);
    expect(first.broadcasts[0]).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Creators',
      body: 'New tools',
      link: '/creator?tab=items',
      role: 'creator',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(first.broadcasts[1]).toMatchObject({ link: null, role: null });
    const second = (await sent({ paging: { limit: 5, page: 2 } })).json<BroadcastsResponse>();
    expect(second).toMatchObject({ total: 7, message: 'OK' });
    expect(second.broadcasts.map((b) => b.title)).toEqual(['News 2', 'News 1']);
  });

  it('is for admins only, and refuses bad paging', async () => {
    expect(declaredRoutes.find((r) => r.url === '/api/audit/broadcasts' && r.method === 'POST')?.access).toBe('admin');
    const m = await registerMember(t.app, 'bclist');
    expect((await sent({ paging: { limit: 5, page: 1 } }, m.token)).statusCode).toBe(403);
    expect((await sent({ paging: { limit: 5, page: 1 } }, '')).statusCode).toBe(401);
    const bad = await sent({ paging: { limit: 500, page: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/limit/);
    expect((await sent({})).statusCode).toBe(400);
  });
});
