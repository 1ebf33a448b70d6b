/**
 * The authenticator app (DESIGN §11.1): setup answers a secret, its otpauth URL and QR code; a first code
 * turns TOTP on with ten recovery codes; a code is accepted once (even by two requests at once), within a
 * step each way; a recovery code works once; a new set retires the old; turning off needs a code; wrong
 * codes are limited per account (429). Codes are made with otplib from the secret.
 */
import type { RecoveryCodesResponse, TotpSetupResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, type Member, registerMember, useTestApp } from './helpers.ts';
import { codeAt, enrol, wrongCode } from './mfa.helpers.ts';

const t = useTestApp();

const post = (m: Member, path: string, body: unknown) => call(t.app, m.token, 'POST', `/api/user/mfa/${path}`, body);

async function mfaOf(m: Member): Promise<User['mfa']> {
  const res = await call(t.app, m.token, 'GET', '/api/user/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ user: User }>().user.mfa;
}

describe('enrolling an authenticator app', () => {
  it('answers a base32 secret, its otpauth URL and a QR code; a first code turns TOTP on with ten recovery codes', async () => {
    const m = await registerMember(t.app, 'totp');
    expect(await mfaOf(m)).toEqual({ totp: false, passkeys: 0 });
    const setup = await post(m, 'totp/setup', {});
    expect(setup.statusCode, setup.body).toBe(200);
    const body = setup.json<TotpSetupResponse>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(body.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(body.secret);
    expect(url.searchParams.get('issuer')).toBe('Starlight');
    expect(url.searchParams.get('digits') ?? '6').toBe('6');
    expect(url.searchParams.get('period') ?? '30').toBe('30');
    expect((url.searchParams.get('algorithm') ?? 'SHA1').toUpperCase()).toBe('SHA1');
    expect(decodeURIComponent(url.pathname)).toContain(m.nickname);
    expect(body.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    // Still off while pending; the secret is sealed at rest.
    expect(await mfaOf(m)).toEqual({ totp: false, passkeys: 0 });
    const stored = await t.built.database.db.execute(sql`SELECT secret_sealed FROM user_totp WHERE user_id = ${m.id}`);
    expect(JSON.stringify(stored.rows)).not.toContain(body.secret);

    const wrong = await post(m, 'totp/enable', { code: await wrongCode(body.secret) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Invalid code');
    expect(await mfaOf(m)).toEqual({ totp: false, passkeys: 0 });

    const enabled = await post(m, 'totp/enable', { code: await codeAt(body.secret) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const codes = enabled.json<RecoveryCodesResponse>().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(await mfaOf(m)).toEqual({ totp: true, passkeys: 0 });
    const hashes = await t.built.database.db.execute(
      sql`SELECT code_hash FROM user_recovery_codes WHERE user_id = ${m.id}`,
    );
    expect(hashes.rows).toHaveLength(10);
    expect(JSON.stringify(hashes.rows)).not.toContain(codes[0]?.replace(/-/g, '') as string);

    const again = await post(m, 'totp/setup', {});
    expect(again.statusCode).toBe(409);
    expect((await post(m, 'totp/enable', { code: await codeAt(body.secret, 1) })).statusCode).toBe(409);
  });

  it('enable without a setup is a 409; a code of another shape is a 400', async () => {
    const m = await registerMember(t.app, 'totp');
    expect((await post(m, 'totp/enable', { code: '123456' })).statusCode).toBe(409);
    const short = await post(m, 'totp/enable', { code: '12' });
    expect(short.statusCode).toBe(400);
    expect((await post(m, 'totp/disable', { code: '123456' })).statusCode).toBe(409);
  });

  it('refuses an API key: these routes need the session', async () => {
    const m = await registerMember(t.app, 'totp');
    const key = (await call(t.app, m.token, 'GET', '/api/user/newApiKey')).json<{ apiKey: string }>().apiKey;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/mfa/totp/setup',
      headers: { 'x-api-key': key },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('codes', () => {
  it('accepts a code once, a step either way, never an older step', async () => {
    const m = await registerMember(t.app, 'totp');
    const { secret } = await enrol(t.app, m.token);
    // The code of the step before now was used by enable: the same code again is refused.
    const reused = await post(m, 'recoveryCodes', { code: await codeAt(secret, -1) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('Invalid code');
    const old = await post(m, 'recoveryCodes', { code: await codeAt(secret, -3) });
    expect(old.statusCode).toBe(400);
    const now = await codeAt(secret);
    expect((await post(m, 'recoveryCodes', { code: now })).statusCode).toBe(200);
    expect((await post(m, 'recoveryCodes', { code: now })).json().message).toBe('Invalid code');
    expect((await post(m, 'recoveryCodes', { code: await codeAt(secret, 1) })).statusCode).toBe(200);
    // Two steps ahead is beyond the tolerance.
    expect((await post(m, 'recoveryCodes', { code: await codeAt(secret, 2) })).statusCode).toBe(400);
  });

  it('lets only one of two requests at once through with one code', async () => {
    const m = await registerMember(t.app, 'totp');
    const { secret } = await enrol(t.app, m.token);
    const code = await codeAt(secret);
    const answers = await Promise.all([1, 2, 3].map(() => post(m, 'recoveryCodes', { code })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('takes a recovery code wherever a code goes, once; a new set retires the old one', async () => {
    const m = await registerMember(t.app, 'totp');
    const { secret, recoveryCodes } = await enrol(t.app, m.token);
    const [first, second] = recoveryCodes as [string, string];
    const fresh = await post(m, 'recoveryCodes', { code: first.toUpperCase() });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const newCodes = fresh.json<RecoveryCodesResponse>().recoveryCodes;
    expect(newCodes).toHaveLength(10);
    expect(newCodes.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    // The used one and the rest of the old set no longer work.
    expect((await post(m, 'recoveryCodes', { code: first })).json().message).toBe('Invalid code');
    expect((await post(m, 'totp/disable', { code: second })).json().message).toBe('Invalid code');
    // A code of the new set turns TOTP off (spaces and dashes do not matter).
    const off = await post(m, 'totp/disable', { code: ` ${(newCodes[3] as string).replace(/-/g, ' ')} ` });
    expect(off.statusCode, off.body).toBe(200);
    expect(await mfaOf(m)).toEqual({ totp: false, passkeys: 0 });
    expect((await post(m, 'totp/disable', { code: await codeAt(secret) })).statusCode).toBe(409);
    const left = await t.built.database.db.execute(
      sql`SELECT count(*)::int AS n FROM user_recovery_codes WHERE user_id = ${m.id}`,
    );
    expect(left.rows[0]).toEqual({ n: 0 });
  });

  it('turns TOTP off with a code, not with a wrong one; it can be set up again', async () => {
    const m = await registerMember(t.app, 'totp');
    const { secret } = await enrol(t.app, m.token);
    const wrong = await post(m, 'totp/disable', { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(400);
    expect(await mfaOf(m)).toEqual({ totp: true, passkeys: 0 });
    expect((await post(m, 'totp/disable', { code: await codeAt(secret) })).statusCode).toBe(200);
    expect(await mfaOf(m)).toEqual({ totp: false, passkeys: 0 });
    expect((await post(m, 'totp/setup', {})).statusCode).toBe(200);
  });

  it('answers 429 past ten wrong codes in a row, even to a right code', async () => {
    const m = await registerMember(t.app, 'totp');
    const { secret } = await enrol(t.app, m.token);
    for (let i = 0; i < 10; i++) {
      const res = await post(m, 'recoveryCodes', { code: 'aaaa-bbbb-cccc' });
      expect(res.statusCode, `attempt ${i + 1}`).toBe(400);
    }
    const limited = await post(m, 'recoveryCodes', { code: await codeAt(secret) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many codes tried, please wait a few minutes and try again');
    // Another member is not limited by it.
    const other = await registerMember(t.app, 'totp');
    const o = await enrol(t.app, other.token);
    expect((await post(other, 'recoveryCodes', { code: await codeAt(o.secret) })).statusCode).toBe(200);
  });
});
