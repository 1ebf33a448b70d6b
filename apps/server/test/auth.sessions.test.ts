/**
 * Session checks read together (plugins/auth.ts): requests that arrive while an account read
 * is under way are checked in the next one, many accounts in one statement. Each request must still get
 * its own account, a stale token among them must still fail alone, and a change made before a request
 * arrives must count for it.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, type Member, registerMember, sessionTokenFor, useTestApp } from './helpers.ts';

const t = useTestApp();
const MEMBERS = 30;

describe('session checks of concurrent requests', () => {
  it('answer each request as its own member, and refuse a stale or deactivated one alone', async () => {
    const members: Member[] = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await registerMember(t.app, 'sess'));
    // A token of a version the account no longer has (as after a logout elsewhere).
    const stale = { token: await sessionTokenFor(t.built, { id: members[0]!.id, tokenVersion: 7 }) };

    const burst = async () =>
      Promise.all([
        ...members.map((m) => call(t.app, m.token, 'GET', '/api/user/me')),
        call(t.app, stale.token, 'GET', '/api/user/me'),
      ]);
    const first = await burst();
    for (const [i, m] of members.entries()) {
      expect(first[i]!.statusCode, first[i]!.body).toBe(200);
      expect(first[i]!.json<{ user: { nickname: string } }>().user.nickname).toBe(m.nickname);
    }
    expect(first[MEMBERS]!.statusCode).toBe(401);

    // Deactivated before the next burst: only that member is refused, at once.
    const gone = members[5]!;
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${gone.id}`);
    const second = await burst();
    for (const [i, m] of members.entries()) {
      expect(second[i]!.statusCode, m.nickname).toBe(m === gone ? 401 : 200);
    }
  });
});
