/**
 * Passkeys (DESIGN §11.1) through the API on PostgreSQL, with a software authenticator
 * (webauthn.authenticator.ts) that signs real WebAuthn data: adding, listing and removing a passkey, and
 * signing in with one; a challenge used twice, another challenge's or account's answer, a forged
 * signature and an unknown credential are refused and change nothing; an IP-address PUBLIC_URL refuses
 * passkeys with the reason.
 */
import { MESSAGES, type PasskeyInfo } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { cappCalls } from './capp.helpers.ts';
import { call, type Member, makeApp, registerMember, useTestApp } from './helpers.ts';
import { assert, createPasskey, type SoftPasskey, strangerKey } from './webauthn.authenticator.ts';

const ORIGIN = 'https://starlight.example.test';
const t = useTestApp({ PUBLIC_URL: ORIGIN });

interface Options {
  challenge: string;
  rp: { id: string };
  user: { id: string; name: string };
  rpId: string;
  allowCredentials?: unknown[];
  authenticatorSelection?: { residentKey?: string; userVerification?: string };
}

async function registrationOptions(member: Member): Promise<Options> {
  const res = await call(t.app, member.token, 'POST', '/api/user/passkeys/registrationOptions', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ options: Options }>().options;
}

/** Adds a passkey to `member` through the API; answers the authenticator's passkey and the wire's. */
async function addPasskey(member: Member, name?: string): Promise<{ soft: SoftPasskey; info: PasskeyInfo }> {
  const { response, passkey } = createPasskey(await registrationOptions(member), ORIGIN);
  const res = await call(t.app, member.token, 'POST', '/api/user/passkeys/register', { response, name });
  expect(res.statusCode, res.body).toBe(200);
  return { soft: passkey, info: res.json<{ passkey: PasskeyInfo }>().passkey };
}

async function authenticationOptions(): Promise<{ options: Options; challengeId: string }> {
  const res = await call(t.app, undefined, 'POST', '/api/user/passkeys/authenticationOptions', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ options: Options; challengeId: string }>();
}

function passkeyLogin(payload: Record<string, unknown>) {
  return call(t.app, undefined, 'POST', '/api/user/passkeys/login', payload);
}

async function listOf(member: Member): Promise<PasskeyInfo[]> {
  const res = await call(t.app, member.token, 'GET', '/api/user/passkeys');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ passkeys: PasskeyInfo[] }>().passkeys;
}

async function stored(credentialId: string): Promise<{ counter: number; last_used_at: string | null } | undefined> {
  const res = await t.built.database.db.execute<{ counter: string; last_used_at: string | null }>(
    sql`SELECT counter, last_used_at FROM user_passkeys WHERE credential_id = ${credentialId}`,
  );
  const row = res.rows[0];
  return row ? { counter: Number(row.counter), last_used_at: row.last_used_at } : undefined;
}

async function accessLogTypes(userId: string): Promise<number[]> {
  const res = await t.built.database.db.execute<{ login_type: number }>(
    sql`SELECT login_type FROM access_logs WHERE user_id = ${userId} ORDER BY created_at, id`,
  );
  return res.rows.map((r) => Number(r.login_type));
}

describe('adding, listing and removing passkeys', () => {
  it('asks for a discoverable credential with user verification for the host of PUBLIC_URL', async () => {
    const member = await registerMember(t.app, 'pk');
    const options = await registrationOptions(member);
    expect(options.rp.id).toBe('starlight.example.test');
    expect(options.user.name).toBe(member.nickname);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
  });

  it('adds a passkey, lists it with its dates, and removes it', async () => {
    const member = await registerMember(t.app, 'pk');
    const { info } = await addPasskey(member, 'Laptop');
    expect(info.name).toBe('Laptop');
    expect(info.lastUsedAt).toBeNull();
    expect(Date.parse(info.createdAt)).not.toBeNaN();
    const second = await addPasskey(member);
    expect(second.info.name).toBe('Passkey 2');
    expect((await listOf(member)).map((p) => p._id)).toEqual([second.info._id, info._id]);

    const removed = await call(t.app, member.token, 'POST', '/api/user/passkeys/remove', { _id: info._id });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await listOf(member)).map((p) => p._id)).toEqual([second.info._id]);
    const again = await call(t.app, member.token, 'POST', '/api/user/passkeys/remove', { _id: info._id });
    expect(again.statusCode).toBe(404);
  });

  it("answers 404 for another member's passkey and leaves it", async () => {
    const [owner, other] = [await registerMember(t.app, 'pk'), await registerMember(t.app, 'pk')];
    const { info } = await addPasskey(owner);
    const res = await call(t.app, other.token, 'POST', '/api/user/passkeys/remove', { _id: info._id });
    expect(res.statusCode).toBe(404);
    expect(await listOf(other)).toEqual([]);
    expect((await listOf(owner)).map((p) => p._id)).toEqual([info._id]);
  });

  it("refuses a challenge used twice and another member's challenge, adding nothing", async () => {
    const [member, other] = [await registerMember(t.app, 'pk'), await registerMember(t.app, 'pk')];
    const options = await registrationOptions(member);
    const first = createPasskey(options, ORIGIN);
    expect(
      (await call(t.app, member.token, 'POST', '/api/user/passkeys/register', { response: first.response })).statusCode,
    ).toBe(200);
    const reused = createPasskey(options, ORIGIN);
    const res = await call(t.app, member.token, 'POST', '/api/user/passkeys/register', { response: reused.response });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(MESSAGES.passkeyChallengeInvalid);

    const theirs = createPasskey(await registrationOptions(member), ORIGIN);
    const stolen = await call(t.app, other.token, 'POST', '/api/user/passkeys/register', { response: theirs.response });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json<{ message: string }>().message).toBe(MESSAGES.passkeyChallengeInvalid);
    expect(await listOf(other)).toEqual([]);
    expect(await listOf(member)).toHaveLength(1);
  });

  it('refuses an answer made for another origin or without user verification', async () => {
    const member = await registerMember(t.app, 'pk');
    const elsewhere = createPasskey(await registrationOptions(member), 'https://phish.example.test');
    const res = await call(t.app, member.token, 'POST', '/api/user/passkeys/register', {
      response: elsewhere.response,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(MESSAGES.passkeyNotVerified);
    const unverified = createPasskey(await registrationOptions(member), ORIGIN, 0x01 | 0x40);
    const res2 = await call(t.app, member.token, 'POST', '/api/user/passkeys/register', {
      response: unverified.response,
    });
    expect(res2.statusCode).toBe(400);
    expect(await listOf(member)).toEqual([]);
  });

  it('is for session tokens only and members only', async () => {
    expect((await call(t.app, undefined, 'GET', '/api/user/passkeys')).statusCode).toBe(401);
    const member = await registerMember(t.app, 'pk');
    const key = (await call(t.app, member.token, 'GET', '/api/user/newApiKey')).json<{ apiKey: string }>().apiKey;
    const res = await t.app.inject({ method: 'GET', url: '/api/user/passkeys', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(403);
  });
});

describe('signing in with a passkey', () => {
  it('opens a session that passed a second factor, and records the use', async () => {
    const member = await registerMember(t.app, 'pk');
    const { soft, info } = await addPasskey(member);
    const before = await accessLogTypes(member.id);
    const { options, challengeId } = await authenticationOptions();
    expect(options.rpId).toBe('starlight.example.test');
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await passkeyLogin({ challengeId, response: assert(soft, options, ORIGIN) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ user: { nickname: string }; token: string; message: string }>();
    expect(body.user.nickname).toBe(member.nickname);
    expect(body.message).toBe(`Welcome back, ${member.nickname}`);

    const sessions = await call(t.app, body.token, 'GET', '/api/user/sessions');
    expect(sessions.statusCode, sessions.body).toBe(200);
    const current = sessions
      .json<{ sessions: { current: boolean; secondFactor: boolean }[] }>()
      .sessions.find((s) => s.current);
    expect(current?.secondFactor).toBe(true);
    expect(await stored(info.credentialId)).toMatchObject({ counter: 1 });
    expect((await stored(info.credentialId))?.last_used_at).not.toBeNull();
    expect((await listOf(member))[0]?.lastUsedAt).not.toBeNull();
    expect(await accessLogTypes(member.id)).toEqual([...before, 1]);
  });

  it('refuses a challenge used twice, and an answer to another challenge', async () => {
    const member = await registerMember(t.app, 'pk');
    const { soft, info } = await addPasskey(member);
    const first = await authenticationOptions();
    expect(
      (await passkeyLogin({ challengeId: first.challengeId, response: assert(soft, first.options, ORIGIN) }))
        .statusCode,
    ).toBe(200);
    const replay = await passkeyLogin({
      challengeId: first.challengeId,
      response: assert(soft, first.options, ORIGIN),
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json<{ message: string }>().message).toBe(MESSAGES.passkeyChallengeInvalid);

    const [a, b] = [await authenticationOptions(), await authenticationOptions()];
    const crossed = await passkeyLogin({ challengeId: a.challengeId, response: assert(soft, b.options, ORIGIN) });
    expect(crossed.statusCode).toBe(401);
    expect(crossed.json<{ message: string }>().message).toBe(MESSAGES.passkeyNotVerified);
    expect(await stored(info.credentialId)).toMatchObject({ counter: 1 });
  });

  it('refuses a forged signature, an unknown credential and another account’s user handle, changing nothing', async () => {
    const [member, other] = [await registerMember(t.app, 'pk'), await registerMember(t.app, 'pk')];
    const { soft, info } = await addPasskey(member);
    const theirs = await addPasskey(other);
    const before = await accessLogTypes(member.id);

    const forged = await authenticationOptions();
    const res = await passkeyLogin({
      challengeId: forged.challengeId,
      response: assert(soft, forged.options, ORIGIN, strangerKey()),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toBe(MESSAGES.passkeyNotVerified);

    const unknown = createPasskey(
      { challenge: 'x', rp: { id: 'starlight.example.test' }, user: { id: 'eA' } },
      ORIGIN,
    ).passkey;
    const u = await authenticationOptions();
    const res2 = await passkeyLogin({ challengeId: u.challengeId, response: assert(unknown, u.options, ORIGIN) });
    expect(res2.statusCode).toBe(401);
    expect(res2.json<{ message: string }>().message).toBe(MESSAGES.passkeyUnknown);

    // The other member's credential presented as this member's account (its user handle swapped).
    const swapped = { ...theirs.soft, userHandle: soft.userHandle };
    const s = await authenticationOptions();
    const res3 = await passkeyLogin({ challengeId: s.challengeId, response: assert(swapped, s.options, ORIGIN) });
    expect(res3.statusCode).toBe(401);

    expect(await stored(info.credentialId)).toMatchObject({ counter: 0, last_used_at: null });
    expect(await stored(theirs.info.credentialId)).toMatchObject({ counter: 0, last_used_at: null });
    expect(await accessLogTypes(member.id)).toEqual(before);
  });

  it('refuses an inactive account as login does', async () => {
    const member = await registerMember(t.app, 'pk');
    const { soft } = await addPasskey(member);
    await t.built.database.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${member.id}`);
    const { options, challengeId } = await authenticationOptions();
    const res = await passkeyLogin({ challengeId, response: assert(soft, options, ORIGIN) });
    expect(res.statusCode).toBe(403);
  });

  it('grants a creator app’s consent request instead of a session', async () => {
    const { makeCreator, requestId, accessLogTypes: types } = cappCalls(t, () => app);
    const app = await makeCreator('pkc');
    const member = await registerMember(t.app, 'pk');
    const { soft } = await addPasskey(member);
    const { options, challengeId } = await authenticationOptions();
    const cAppAuthRequest = await requestId();
    const res = await passkeyLogin({ challengeId, response: assert(soft, options, ORIGIN), cAppAuthRequest });
    expect(res.statusCode, res.body).toBe(200);
    expect(new URL(res.json<{ url: string }>().url).searchParams.get('code')).toBeTruthy();
    expect((await types(member.id)).at(-1)).toBe(3);
  });
});

describe('on an IP-address PUBLIC_URL', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await makeApp({ PUBLIC_URL: 'http://192.168.1.20:3000' });
  });
  afterAll(async () => {
    await built?.app.close();
  });

  it('refuses passkeys with the reason', async () => {
    const member = await registerMember(built.app, 'pk');
    for (const [token, url] of [
      [member.token, '/api/user/passkeys/registrationOptions'],
      [undefined, '/api/user/passkeys/authenticationOptions'],
    ] as const) {
      const res = await call(built.app, token, 'POST', url, {});
      expect(res.statusCode, url).toBe(409);
      expect(res.json<{ message: string }>().message).toBe(MESSAGES.passkeysNeedDomain);
    }
  });
});
