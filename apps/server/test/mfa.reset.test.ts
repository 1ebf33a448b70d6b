/**
 * The admin's `resetUserMfa` and the security mails of second factors through the API (DESIGN §11.1): an
 * admin turns a member's authenticator app and passkeys off, written to the admin log (41 Reset User
 * Two-Factor), and the member signs in with the password alone; turning TOTP off and adding a passkey
 * mail the owner.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthResponse, MeResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { call, eventually, makeApp, PASSWORD, registerMember, useTestApp } from './helpers.ts';
import { readOutbox } from './mail-catcher.ts';
import { codeAt, enrol } from './mfa.helpers.ts';
import { createPasskey } from './webauthn.authenticator.ts';

const ORIGIN = 'https://starlight.example.test';
let dataDir: string;
const t = useTestApp(
  {},
  {
    build: async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'starlight-mfa-reset-'));
      return makeApp({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN });
    },
  },
);
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Adds a passkey to the member of `token` with the software authenticator. */
async function addPasskey(token: string): Promise<void> {
  const opts = await call(t.app, token, 'POST', '/api/user/passkeys/registrationOptions', {});
  expect(opts.statusCode, opts.body).toBe(200);
  const { response } = createPasskey(opts.json<{ options: Parameters<typeof createPasskey>[0] }>().options, ORIGIN);
  const res = await call(t.app, token, 'POST', '/api/user/passkeys/register', { response, name: 'Laptop' });
  expect(res.statusCode, res.body).toBe(200);
}

async function mfaOf(token: string): Promise<MeResponse['user']['mfa']> {
  const me = await call(t.app, token, 'GET', '/api/user/me');
  expect(me.statusCode, me.body).toBe(200);
  return me.json<MeResponse>().user.mfa;
}

/** The subjects of the mails sent to `email`, once there are at least `count`. */
async function subjectsTo(email: string, count: number): Promise<string[]> {
  const mails = await eventually(
    async () => (await readOutbox(path.join(dataDir, 'outbox'))).filter((m) => m.to.includes(email)),
    (m) => m.length >= count,
  );
  return mails.map((m) => m.subject);
}

describe("the admin's resetUserMfa", () => {
  it('removes the authenticator app and the passkeys, writes the admin log, and the password signs in', async () => {
    const m = await registerMember(t.app, 'reset');
    await enrol(t.app, m.token);
    await addPasskey(m.token);
    expect(await mfaOf(m.token)).toEqual({ totp: true, passkeys: 1 });

    const res = await call(t.app, t.admin.token, 'POST', '/api/user/resetUserMfa', { nickname: m.nickname });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ message: string }>().message).toBe(
      `${m.nickname}'s two-factor authentication has been reset (authenticator app, 1 passkey removed)`,
    );
    expect(await mfaOf(m.token)).toEqual({ totp: false, passkeys: 0 });
    const logs = await t.built.database.db.execute<{ category: number; action: string }>(
      sql`SELECT category, action FROM admin_logs WHERE affected_user_id = ${m.id} AND category = 41`,
    );
    expect(logs.rows).toEqual([
      { category: 41, action: `Reset ${m.nickname}'s two-factor: authenticator app, 1 passkey removed` },
    ]);
    const login = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: m.nickname,
      password: PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json<AuthResponse>().token).toEqual(expect.any(String));
  });

  it('is an admin route: a member gets 403 and changes nothing; an unknown nickname is 404', async () => {
    const m = await registerMember(t.app, 'resetme');
    const other = await registerMember(t.app, 'resetother');
    await enrol(t.app, other.token);
    const refused = await call(t.app, m.token, 'POST', '/api/user/resetUserMfa', { nickname: other.nickname });
    expect(refused.statusCode).toBe(403);
    expect((await mfaOf(other.token)).totp).toBe(true);
    const unknown = await call(t.app, t.admin.token, 'POST', '/api/user/resetUserMfa', { nickname: 'nosuchmember' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('security mails of second factors', () => {
  it('mail the owner when a passkey is added and when TOTP is turned off', async () => {
    const m = await registerMember(t.app, 'mfamail');
    await addPasskey(m.token);
    expect(await subjectsTo(m.email, 1)).toContain('A passkey was added to your Starlight account');
    const { secret } = await enrol(t.app, m.token);
    const off = await call(t.app, m.token, 'POST', '/api/user/mfa/totp/disable', { code: await codeAt(secret) });
    expect(off.statusCode, off.body).toBe(200);
    expect(await subjectsTo(m.email, 2)).toContain(
      'Two-factor authentication was turned off on your Starlight account',
    );
  });
});
