/**
 * Creator apps asking for consent (DESIGN §7), tested as RFC 9700 advises for the
 * authorization code flow: a creator's app asks with its API key, URLs equal to the registered ones byte
 * for byte (scheme, host, subdomain, port, path, query and a trailing slash all count), unsafe URLs
 * refused even when registered before the rule; the page reads the request without signing in. Signing in
 * and redeeming the code: capp.test.ts.
 */
import type { CreateAuthRequestResponse, GetAuthRequestResponse, OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CANCEL, cappCalls, REDIRECT, withKey } from './capp.helpers.ts';
import { call, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let creatorKey: string;
let collection: OwnCollection;
const { newKey, makeCreator, ask, requestCount } = cappCalls(t, () => ({
  member: creator,
  key: creatorKey,
  collection,
}));

beforeAll(async () => {
  ({ member: creator, key: creatorKey, collection } = await makeCreator('capp'));
});

/**
 * URLs a member's browser must never be sent to (RFC 9700 §4.1): other schemes, http: off loopback,
 * credentials, and spellings that parsers read differently (whitespace, control characters, backslashes).
 */
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
