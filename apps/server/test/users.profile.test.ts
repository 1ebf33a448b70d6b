/**
 * `updateProfile` (DESIGN §8): nickname, e-mail and password changes with their rules, the
 * wallet-only case, mass assignment refused, and what a password change does to other sessions.
 */
import type { AuthResponse, UpdateProfileResponse, User } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newObjectId } from '../src/lib/ids.ts';
import { call, type Member, PASSWORD, registerMember, sessionTokenFor, uniqueNick, useTestApp } from './helpers.ts';

const NEW_PASSWORD = 'An0ther!Passw0rd';
const t = useTestApp();

function update(token: string | undefined, body: Record<string, unknown>) {
  return call(t.app, token, 'POST', '/api/user/updateProfile', body);
}

async function me(token: string): Promise<User> {
  const res = await call(t.app, token, 'GET', '/api/user/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ user: User }>().user;
}

function login(nickOrEmail: string, password: string) {
  return t.app.inject({ method: 'POST', url: '/api/user/login', payload: { nickOrEmail, password } });
}

/** A wallet-only account (no e-mail, no password) made in the database, signed in. */
async function walletOnlyMember(): Promise<Member> {
  const id = newObjectId();
  const nickname = uniqueNick('w');
  const wallet = `0x${id}${id.slice(0, 16)}`;
  await t.built.database.db.execute(
    sql`INSERT INTO users (id, nickname, is_wallet_only, primary_wallet) VALUES (${id}, ${nickname}, true, ${wallet})`,
  );
  const token = await sessionTokenFor(t.built, { id });
  return { id, nickname, email: '', token };
}

describe('nickname', () => {
  it('changes the nickname; the member signs in with the new one', async () => {
    const m = await registerMember(t.app, 'nick');
    const nickname = uniqueNick('renamed');
    const res = await update(m.token, { nickname });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UpdateProfileResponse>()).toMatchObject({
      message: 'Your account has been updated',
      user: { nickname },
    });
    expect(res.json<UpdateProfileResponse>().token).toBeUndefined();
    expect((await me(m.token)).nickname).toBe(nickname);
    expect((await login(nickname, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a taken nickname (any case) with 409 and keeps the old one', async () => {
    const a = await registerMember(t.app, 'ta');
    const b = await registerMember(t.app, 'tb');
    const res = await update(b.token, { nickname: a.nickname.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nickname already taken');
    expect((await me(b.token)).nickname).toBe(b.nickname);
  });

  it('refuses an invalid nickname with SPEC’s message', async () => {
    const m = await registerMember(t.app, 'bad');
    const res = await update(m.token, { nickname: 'no spaces allowed' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"nickname" contains an invalid value');
  });
});

describe('e-mail', () => {
  it('needs the current password; a new e-mail is unverified', async () => {
    const m = await registerMember(t.app, 'mail');
    await t.built.database.db.execute(sql`UPDATE users SET is_email_verified = true WHERE id = ${m.id}`);
    const email = `new.${m.email}`;

    const missing = await update(m.token, { email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('"currentPassword" is required');
    const wrong = await update(m.token, { email, currentPassword: 'Wr0ng!Password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Incorrect password');
    expect(await me(m.token)).toMatchObject({ email: m.email, isEmailVerified: true });

    const ok = await update(m.token, { email: email.toUpperCase(), currentPassword: PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<UpdateProfileResponse>().user).toMatchObject({ email, isEmailVerified: false });
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an e-mail another account uses with 409', async () => {
    const a = await registerMember(t.app, 'ea');
    const b = await registerMember(t.app, 'eb');
    const res = await update(b.token, { email: a.email, currentPassword: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect((await me(b.token)).email).toBe(b.email);
  });
});

describe('password', () => {
  it('needs the current password, ends every other session and answers a fresh token', async () => {
    const m = await registerMember(t.app, 'pw');
    const other = (await login(m.nickname, PASSWORD)).json<AuthResponse>().token;

    const wrong = await update(m.token, { password: NEW_PASSWORD, currentPassword: 'Wr0ng!Password' });
    expect(wrong.statusCode).toBe(401);
    expect((await call(t.app, other, 'GET', '/api/user/me')).statusCode).toBe(200);

    const res = await update(m.token, { password: NEW_PASSWORD, currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const { token } = res.json<UpdateProfileResponse>();
    expect(token).toEqual(expect.any(String));
    expect(res.body).not.toContain(NEW_PASSWORD);

    for (const old of [m.token, other]) expect((await call(t.app, old, 'GET', '/api/user/me')).statusCode).toBe(401);
    expect((await me(token as string)).nickname).toBe(m.nickname);
    expect((await login(m.nickname, PASSWORD)).statusCode).toBe(401);
    expect((await login(m.nickname, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a weak password with SPEC’s message and changes nothing', async () => {
    const m = await registerMember(t.app, 'weak');
    const res = await update(m.token, { password: 'password', currentPassword: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Password not strong enough');
    expect((await login(m.nickname, PASSWORD)).statusCode).toBe(200);
  });

  it('stores argon2id hashes with m >= 19456 KiB and t >= 2', async () => {
    const m = await registerMember(t.app, 'hash');
    await update(m.token, { password: NEW_PASSWORD, currentPassword: PASSWORD });
    const res = await t.built.database.db.execute(sql`SELECT password_hash FROM users WHERE id = ${m.id}`);
    const stored = String((res.rows[0] as { password_hash: string }).password_hash);
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
    expect(match, stored).not.toBeNull();
    expect(Number(match?.[1])).toBeGreaterThanOrEqual(19456);
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(2);
  });
});

describe('wallet-only accounts', () => {
  it('add a nickname and an e-mail without a password, and cannot set one', async () => {
    const w = await walletOnlyMember();
    const nickname = uniqueNick('chosen');
    const email = `${nickname}@example.test`;
    const res = await update(w.token, { nickname, email });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UpdateProfileResponse>().user).toMatchObject({
      nickname,
      email,
      isWalletOnly: true,
      isEmailVerified: false,
    });
    const pw = await update(w.token, { password: NEW_PASSWORD });
    expect(pw.statusCode).toBe(409);
    expect((await login(nickname, NEW_PASSWORD)).statusCode).toBe(401);
  });
});

describe('what cannot be set', () => {
  it.each([
    ['role', 'admin'],
    ['isActive', false],
    ['isEmailVerified', true],
    ['isWalletOnly', true],
    ['fame', 100],
    ['primaryWallet', '0x0000000000000000000000000000000000000001'],
    ['passwordHash', 'x'],
    ['balances', [{ currencyId: 1, amount: '100' }]],
  ])('refuses %s with 400 and changes nothing else in the body', async (field, value) => {
    const m = await registerMember(t.app, 'mass');
    const before = await me(m.token);
    const res = await update(m.token, { isAnonymous: true, nickname: uniqueNick('mass'), [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`"${field}" is not allowed`);
    const after = await me(m.token);
    expect(after).toEqual(before);
  });

  it('refuses an empty change with 400', async () => {
    const m = await registerMember(t.app, 'empty');
    const res = await update(m.token, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Nothing to update');
  });
});
