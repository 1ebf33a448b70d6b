/**
 * Creator apps (issue 11 §3, §4; DESIGN §7), tested as RFC 9700 advises for the authorization code flow:
 * a creator's app asks with its API key, URLs equal to the registered ones byte for byte (scheme, host,
 * subdomain, port, path, query and a trailing slash all count); the member signs in with the request
 * and gets the app's URL with a single-use code, never a token; the app redeems the code once (a reuse
 * revokes the grant) and reads only the granting member's items in its own collection. Requests and
 * codes expire after 10 minutes. Access log types 3 (password) and 4 (wallet).
 */
import { createHash } from 'node:crypto';
import type {
  CreateAuthRequestResponse,
  GetAuthRequestResponse,
  NoncedMessageResponse,
  OwnCollection,
  RedeemCodeResponse,
} from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Member, PASSWORD, registerMember, useTestApp, withRole } from './helpers.ts';

const t = useTestApp();
const REDIRECT = 'https://app.example.test/callback';
const CANCEL = 'https://app.example.test/cancelled';

/**
 * URLs a member's browser must never be sent to (RFC 9700 §4.1): other schemes, http: off loopback,
 * credentials, and spellings that parsers read differently (whitespace, control characters, backslashes).
 */
const UNSAFE_REQUEST = "This app's redirect or cancel URL is not allowed";
const UNSAFE_URLS: Array<[string, string]> = [
  ['javascript:', 'javascript:alert(document.cookie)'],
  ['JavaScript: in mixed case', 'JavaScript://app.example.test/%0Aalert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['vbscript:', 'vbscript:msgbox(1)'],
  ['file:', 'file:///etc/passwd'],
  ['ftp:', 'ftp://app.example.test/callback'],
  ['http: off loopback', 'http://example.com/callback'],
  ['http: on a host named like loopback', 'http://localhost.example.com/callback'],
  ['http: on a 127. subdomain', 'http://127.0.0.1.example.com/callback'],
  ['credentials', 'https://user:pass@app.example.test/callback'],
  ['an empty user', 'https://@app.example.test/callback'],
  ['a backslash', 'https://app.example.test\\@evil.example/callback'],
  ['a tab', 'https://app.example.test/call\tback'],
  ['a newline', 'https://app.example.test/call\nback'],
  ['leading space', ' https://app.example.test/callback'],
  ['a NUL', 'https://app.example.test/\u0000callback'],
  ['a bidi override', 'https://app.example.test/\u202ecallback'],
  ['no slashes after the scheme', 'https:app.example.test/callback'],
  ['a percent-encoded host', 'https://%65vil.example/callback'],
];

let creator: Member;
let creatorKey: string;
let collection: OwnCollection;

function withKey(app: FastifyInstance, key: string | undefined, url: string, payload: object) {
  return app.inject({ method: 'POST', url, headers: key ? { 'x-api-key': key } : {}, payload });
}

async function newKey(m: Member): Promise<string> {
  const res = await call(t.app, m.token, 'GET', '/api/user/newApiKey');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ apiKey: string }>().apiKey;
}

async function makeCreator(
  prefix: string,
  urls: { redirectUrls: string[]; cancelUrl: string } = {
    redirectUrls: [REDIRECT, 'https://app.example.test/callback?from=game'],
    cancelUrl: CANCEL,
  },
): Promise<{ member: Member; key: string; collection: OwnCollection }> {
  const member = await withRole(t.built, await registerMember(t.app, prefix), 'creator');
  const made = await call(t.app, member.token, 'POST', '/api/inventory/createCollection', {
    name: `Fleet of ${member.nickname}`,
    description: 'Ships for the consent tests',
    ...urls,
  });
  expect(made.statusCode, made.body).toBe(200);
  return { member, key: await newKey(member), collection: made.json<{ collection: OwnCollection }>().collection };
}

function ask(key: string | undefined, overrides: Record<string, unknown> = {}) {
  return withKey(t.app, key, '/api/capp/createAuthRequest', {
    itemCollectionId: collection._id,
    redirectUrl: REDIRECT,
    cancelUrl: CANCEL,
    customMessage: 'Bring your fleet to Orion',
    ...overrides,
  });
}

async function requestId(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await ask(creatorKey, overrides);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CreateAuthRequestResponse>().requestId;
}

function signIn(member: Member, cAppAuthRequest: string) {
  return call(t.app, undefined, 'POST', '/api/user/login', {
    nickOrEmail: member.nickname,
    password: PASSWORD,
    cAppAuthRequest,
  });
}

/** Signs `member` in on request `id` and returns the code from the URL answered. */
async function codeFor(member: Member, id: string): Promise<string> {
  const res = await signIn(member, id);
  expect(res.statusCode, res.body).toBe(200);
  const code = new URL(res.json<{ url: string }>().url).searchParams.get('code');
  if (!code) throw new Error('no code in the URL');
  return code;
}

function redeem(key: string | undefined, code: string) {
  return withKey(t.app, key, '/api/capp/redeemCode', { code });
}

function itemsOf(key: string | undefined, userId: string, itemCollectionId = collection._id) {
  return withKey(t.app, key, '/api/capp/getUserItems', { userId, itemCollectionId });
}

async function giveItem(owner: Member, name: string) {
  const res = await call(t.app, creator.token, 'POST', '/api/inventory/createItem', {
    itemCollection: collection._id,
    owner: owner.nickname,
    name,
    hiddendata: { serial: 'X-1' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function requestCount(): Promise<number> {
  const res = await t.built.database.db.execute<{ n: string }>(
    sql`SELECT count(*) AS n FROM capp_auth_requests WHERE collection_id = ${collection._id}`,
  );
  return Number(res.rows[0]?.n);
}

async function accessLogTypes(userId: string): Promise<number[]> {
  const res = await t.built.database.db.execute<{ login_type: number }>(
    sql`SELECT login_type FROM access_logs WHERE user_id = ${userId} ORDER BY created_at`,
  );
  return res.rows.map((r) => Number(r.login_type));
}

beforeAll(async () => {
  ({ member: creator, key: creatorKey, collection } = await makeCreator('capp'));
});

describe('asking for consent', () => {
  it('the creator app opens a request with its key; the page reads it without signing in', async () => {
    const res = await ask(creatorKey);
    expect(res.statusCode, res.body).toBe(200);
    const asked = res.json<CreateAuthRequestResponse>();
    expect(asked.url).toBe(`http://localhost:3000/loginCApp/${asked.requestId}`);
    const page = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', { requestId: asked.requestId });
    expect(page.statusCode, page.body).toBe(200);
    const { data } = page.json<GetAuthRequestResponse>();
    expect(data).toMatchObject({
      itemCollectionId: collection._id,
      collectionName: collection.name,
      redirectUrl: REDIRECT,
      cancelUrl: CANCEL,
      customMessage: 'Bring your fleet to Orion',
      cappUrl: 'https://app.example.test',
    });
    expect(data.requestMessage).toContain(collection.name);
  });

  it.each([
    ['host', 'https://app.example.org/callback'],
    ['subdomain', 'https://evil.app.example.test/callback'],
    ['port', 'https://app.example.test:8443/callback'],
    ['path', 'https://app.example.test/callback/extra'],
    ['trailing slash', 'https://app.example.test/callback/'],
    ['query', 'https://app.example.test/callback?from=elsewhere'],
    ['letter case', 'https://APP.example.test/callback'],
  ])('refuses a redirect URL that differs by its %s', async (_what, redirectUrl) => {
    const res = await ask(creatorKey, { redirectUrl });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"redirectUrl" is not registered for this collection');
  });

  it.each(UNSAFE_URLS)(
    'refuses an unsafe URL (%s) for both redirectUrl and cancelUrl, writing nothing',
    async (_what, bad) => {
      const before = await requestCount();
      for (const field of ['redirectUrl', 'cancelUrl'] as const) {
        const res = await ask(creatorKey, { [field]: bad });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toBe(`"${field}" contains an invalid value`);
      }
      expect(await requestCount()).toBe(before);
    },
  );

  it('accepts http: on loopback hosts (local development) and https:', async () => {
    const local = await makeCreator('capplocal', {
      redirectUrls: ['http://localhost:4000/callback', 'http://127.0.0.1:4000/callback', 'http://[::1]:4000/cb'],
      cancelUrl: 'http://localhost:4000/cancelled',
    });
    for (const redirectUrl of local.collection.redirectUrls) {
      const res = await withKey(t.app, local.key, '/api/capp/createAuthRequest', {
        itemCollectionId: local.collection._id,
        redirectUrl,
        cancelUrl: 'http://localhost:4000/cancelled',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // The scheme counts in the exact match: https: where http: was registered is another URL.
    const other = await withKey(t.app, local.key, '/api/capp/createAuthRequest', {
      itemCollectionId: local.collection._id,
      redirectUrl: 'https://localhost:4000/callback',
      cancelUrl: 'http://localhost:4000/cancelled',
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe('"redirectUrl" is not registered for this collection');
    expect((await ask(creatorKey)).statusCode).toBe(200);
  });

  it('refuses unsafe URLs a collection registered before the rule existed', async () => {
    const old = await makeCreator('cappold');
    await t.built.database.db.execute(sql`
      UPDATE item_collections SET redirect_urls = ARRAY['javascript:alert(1)', 'http://example.com/cb'],
             cancel_url = 'data:text/html,x'
       WHERE id = ${old.collection._id}`);
    const asking = (redirectUrl: string, cancelUrl: string) =>
      withKey(t.app, old.key, '/api/capp/createAuthRequest', {
        itemCollectionId: old.collection._id,
        redirectUrl,
        cancelUrl,
      });
    for (const [redirectUrl, cancelUrl, field] of [
      ['javascript:alert(1)', 'data:text/html,x', 'redirectUrl'],
      ['http://example.com/cb', 'data:text/html,x', 'redirectUrl'],
      [REDIRECT, 'data:text/html,x', 'cancelUrl'],
    ]) {
      const res = await asking(redirectUrl as string, cancelUrl as string);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(`"${field}" contains an invalid value`);
    }
  });

  it('accepts a second registered redirect URL exactly, and refuses another cancel URL', async () => {
    expect((await ask(creatorKey, { redirectUrl: 'https://app.example.test/callback?from=game' })).statusCode).toBe(
      200,
    );
    const res = await ask(creatorKey, { cancelUrl: 'https://app.example.test/cancel' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('"cancelUrl" is not registered for this collection');
  });

  it("refuses no key, a member's key, and another creator's key for this collection", async () => {
    expect((await ask(undefined)).statusCode).toBe(401);
    const member = await registerMember(t.app, 'nokeyer');
    expect((await ask(await newKey(member))).statusCode).toBe(403);
    const other = await makeCreator('cappother');
    const res = await ask(other.key);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Collection not found');
  });

  it('refuses a custom message over 128 characters and an unknown request id', async () => {
    expect((await ask(creatorKey, { customMessage: 'x'.repeat(129) })).statusCode).toBe(400);
    const res = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', {
      requestId: '0123456789abcdef01234567',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Authorization request not found');
  });
});

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
