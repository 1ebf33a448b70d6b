/**
 * The alert level (SPEC §3 defcon) as pages read it, from two server processes on one database
 * (each keeps the answer it read): a change shows at once on the process that made it, and on the other
 * as soon as the bus carries it; a refused change leaves the level as it was. A database of its own, so no
 * other file's change of the one alert level comes between.
 */
import type { DefconResponse } from '@starlight/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { call, makeApp, makeAppOnOwnDatabase, registerMember, useTestApp } from './helpers.ts';
import { LiveSocket } from './live-socket.ts';
import { TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const OWN_DB = 'defcon';
const t = useTestApp({}, { build: () => makeAppOnOwnDatabase(OWN_DB) });
let b: BuiltApp;

beforeAll(async () => {
  b = await makeApp({ DATABASE_URL: testDatabaseUrl(`${TEST_DB_NAME}_${OWN_DB}`) });
});
afterAll(() => b.app.close());

const level = async (app: BuiltApp['app']) => {
  const res = await call(app, undefined, 'GET', '/api/audit/getDefconLevel');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DefconResponse>();
};

describe('the alert level on two processes', () => {
  it('shows a change at once where it was made, and on the other process once the bus carries it', async () => {
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const onB = await LiveSocket.open(b.app);
    for (const [lvl, msg] of [
      [2, 'Exchange maintenance at noon'],
      [4, 'Withdrawals paused'],
    ] as const) {
      // Both processes have read (and kept) the level before the change.
      const before = await level(t.app);
      expect(await level(b.app)).toEqual(before);
      const res = await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', {
        defconLvl: lvl,
        defconMsg: msg,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await level(t.app)).toEqual({ defconLvl: lvl, defconMsg: msg, message: 'OK' });
      // The bus event that pushes the level to B's pages drops B's kept answer as it goes.
      await onB.until((ms) => ms.some((m) => m.type === 'defcon' && m.defconLvl === lvl && m.defconMsg === msg));
      expect(await level(b.app)).toEqual({ defconLvl: lvl, defconMsg: msg, message: 'OK' });
    }
    onB.close();
  });

  it('keeps the level when a member or a bad level is refused', async () => {
    const before = await level(t.app);
    const member = await registerMember(t.app, 'dfc');
    const asMember = await call(t.app, member.token, 'POST', '/api/audit/setDefconLevel', {
      defconLvl: 1,
      defconMsg: 'Not mine to set',
    });
    expect(asMember.statusCode).toBe(403);
    const tooHigh = await call(t.app, t.admin.token, 'POST', '/api/audit/setDefconLevel', {
      defconLvl: 9,
      defconMsg: 'Out of range',
    });
    expect(tooHigh.statusCode).toBe(400);
    expect(await level(t.app)).toEqual(before);
    expect(await level(b.app)).toEqual(before);
  });
});
