/**
 * Creator apps (DESIGN §7), tested as RFC 9700 advises for the authorization code flow:
 * the member signs in with the app's request and gets the app's URL with a single-use code, never a token;
 * the app redeems the code once (a reuse revokes the grant) and reads only the granting member's items in
 * its own collection. Requests and codes expire after 10 minutes; a request whose stored URL is unsafe is
 * neither shown nor granted. Access log types 3 (password) and 4 (wallet). Asking for consent:
 * capp.consent.test.ts.
 */
import { createHash } from 'node:crypto';
import type { NoncedMessageResponse, OwnCollection, RedeemCodeResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { cappCalls, REDIRECT } from './capp.helpers.ts';
import { call, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let creatorKey: string;
let collection: OwnCollection;
const { makeCreator, requestId, signIn, codeFor, redeem, itemsOf, giveItem, accessLogTypes } = cappCalls(t, () => ({
  member: creator,
  key: creatorKey,
  collection,
}));

beforeAll(async () => {
  ({ member: creator, key: creatorKey, collection } = await makeCreator('capp'));
});

/** What a request whose stored redirect or cancel URL is unsafe answers (RFC 9700 §4.1). */
const UNSAFE_REQUEST = "This app's redirect or cancel URL is not allowed";

describe('signing in and redeeming the code', () => {
  it('a member grants the app: a code on the redirect URL, no token; the app redeems it once and reads the items', async () => {
    const member = await registerMember(t.app, 'granter');
    await giveItem(member, 'Alpha Frigate');
    const id = await requestId();
    const res = await signIn(member, id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('token');
    expect(body).not.toHaveProperty('user');
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    const code = url.searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThanOrEqual(43);
    expect(await accessLogTypes(member.id)).toContain(3);

    const redeemed = await redeem(creatorKey, code);
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(redeemed.json<RedeemCodeResponse>()).toMatchObject({ userId: member.id, nickname: member.nickname });
    const items = await itemsOf(creatorKey, member.id);
    expect(items.statusCode, items.body).toBe(200);
    expect(items.json().data.map((i: { name: string }) => i.name)).toEqual(['Alpha Frigate']);
    expect(items.json().data[0].hiddendata).toEqual({ serial: 'X-1' });

    // The request was used: it cannot be read or signed in with again.
    const again = await signIn(member, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Authorization request already used');
    const page = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', { requestId: id });
    expect(page.json().message).toBe('Authorization request already used');
  });

  it('a reused code is refused and revokes the grant', async () => {
    const member = await registerMember(t.app, 'replayed');
    const code = await codeFor(member, await requestId());
    expect((await redeem(creatorKey, code)).statusCode).toBe(200);
    expect((await itemsOf(creatorKey, member.id)).statusCode).toBe(200);
    const reuse = await redeem(creatorKey, code);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().message).toBe('Code already used');
    const items = await itemsOf(creatorKey, member.id);
    expect(items.statusCode).toBe(403);
    expect(items.json().message).toBe('This member has not authorised your app');
  });

  it("another creator's key, no key and an unknown code redeem nothing", async () => {
    const member = await registerMember(t.app, 'guarded');
    const code = await codeFor(member, await requestId());
    const other = await makeCreator('thief');
    expect((await redeem(other.key, code)).statusCode).toBe(404);
    expect((await redeem(undefined, code)).statusCode).toBe(401);
    expect((await redeem(creatorKey, 'not-a-code')).statusCode).toBe(404);
    // Nothing of that touched the code: its creator still redeems it.
    expect((await redeem(creatorKey, code)).statusCode).toBe(200);
    // And the other creator cannot read the member's items in this collection.
    expect((await itemsOf(other.key, member.id)).statusCode).toBe(404);
  });

  it('an expired request and an expired code are refused', async () => {
    const member = await registerMember(t.app, 'late');
    const db = t.built.database.db;
    const stale = await requestId();
    await db.execute(sql`UPDATE capp_auth_requests SET expires_at = now() - interval '1 second' WHERE id = ${stale}`);
    const res = await signIn(member, stale);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Authorization request expired');
    expect(await accessLogTypes(member.id)).not.toContain(3);

    const code = await codeFor(member, await requestId());
    const hash = createHash('sha256').update(code).digest('hex');
    await db.execute(sql`UPDATE capp_codes SET expires_at = now() - interval '1 second' WHERE code_hash = ${hash}`);
    const redeemed = await redeem(creatorKey, code);
    expect(redeemed.statusCode).toBe(409);
    expect(redeemed.json().message).toBe('Code expired');
  });

  it('a wrong password grants nothing; a member who never granted is refused', async () => {
    const member = await registerMember(t.app, 'wrongpw');
    const id = await requestId();
    const res = await call(t.app, undefined, 'POST', '/api/user/login', {
      nickOrEmail: member.nickname,
      password: 'Wrong-passw0rd!',
      cAppAuthRequest: id,
    });
    expect(res.statusCode).toBe(401);
    const page = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', { requestId: id });
    expect(page.statusCode).toBe(200);
    expect((await itemsOf(creatorKey, member.id)).statusCode).toBe(403);
  });

  it('two sign-ins racing on one request: one code', async () => {
    const member = await registerMember(t.app, 'racer');
    const id = await requestId();
    const results = await Promise.all([signIn(member, id), signIn(member, id), signIn(member, id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it.each([
    ['redirect', 'redirect_url'],
    ['cancel', 'cancel_url'],
  ])(
    'a request whose stored %s URL is unsafe is neither shown nor granted, and nothing is written',
    async (_what, column) => {
      const member = await registerMember(t.app, 'unsafe');
      const id = await requestId();
      await t.built.database.db.execute(
        sql`UPDATE capp_auth_requests SET ${sql.raw(column)} = 'javascript:alert(document.cookie)' WHERE id = ${id}`,
      );
      const page = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', { requestId: id });
      expect(page.statusCode, page.body).toBe(409);
      expect(page.json().message).toBe(UNSAFE_REQUEST);
      const res = await signIn(member, id);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(UNSAFE_REQUEST);
      expect(res.body).not.toContain('javascript');
      expect(await accessLogTypes(member.id)).not.toContain(3);
      const used = await t.built.database.db.execute<{ used: boolean }>(
        sql`SELECT used_at IS NOT NULL AS used FROM capp_auth_requests WHERE id = ${id}`,
      );
      expect(used.rows[0]?.used).toBe(false);
    },
  );

  it('a wallet sign-in grants the app too (access log type 4)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = async () => {
      const nonce = await call(t.app, undefined, 'POST', '/api/user/getNoncedMessage', {
        walletAddress: account.address,
      });
      const message = nonce.json<NoncedMessageResponse>().messageToSign;
      return { walletAddress: account.address, signature: await account.signMessage({ message }) };
    };
    const registered = await call(t.app, undefined, 'POST', '/api/user/registerWallet', await signed());
    expect(registered.statusCode, registered.body).toBe(200);
    const userId = registered.json().user._id as string;
    const res = await call(t.app, undefined, 'POST', '/api/user/loginWallet', {
      ...(await signed()),
      cAppAuthRequest: await requestId(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    const code = new URL(res.json().url).searchParams.get('code') ?? '';
    expect((await redeem(creatorKey, code)).json()).toMatchObject({ userId });
    expect(await accessLogTypes(userId)).toContain(4);
  });
});
