/**
 * The Private checkbox (SPEC §7 updateProfile `isAnonymous`): a member sets and clears it; other fields
 * such as role are refused and change nothing; a session is needed. The other profile changes:
 * users.profile.test.ts.
 */
import type { User } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { call, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

describe('updateProfile', () => {
  it('sets and clears isAnonymous (the Private checkbox)', async () => {
    const m = await registerMember(t.app, 'anon');
    const on = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().message).toBe('Your account has been updated');
    expect(on.json<{ user: User }>().user.isAnonymous).toBe(true);
    const me = await call(t.app, m.token, 'GET', '/api/user/me');
    expect(me.json<{ user: User }>().user.isAnonymous).toBe(true);
    const off = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<{ user: User }>().user.isAnonymous).toBe(false);
  });

  it('refuses other fields such as role and changes nothing', async () => {
    const m = await registerMember(t.app, 'sneaky');
    const res = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { isAnonymous: true, role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"role" is not allowed');
    const user = (await call(t.app, m.token, 'GET', '/api/user/me')).json<{ user: User }>().user;
    expect(user.role).toBe('user');
    expect(user.isAnonymous).toBe(false);
    const fame = await call(t.app, m.token, 'POST', '/api/user/updateProfile', { fame: 100 });
    expect(fame.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await call(t.app, undefined, 'POST', '/api/user/updateProfile', { isAnonymous: true });
    expect(res.statusCode).toBe(401);
  });
});
