/**
 * Helpers of the creator app tests (capp.test.ts, capp.consent.test.ts): creators with a collection and an
 * API key, the app's calls made with its key, members signing in on a request, and what the database
 * holds of requests and sign-ins.
 */
import type { CreateAuthRequestResponse, Item, OwnCollection } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { call, type Member, PASSWORD, registerMember, type TestApp, withRole } from './helpers.ts';

export const REDIRECT = 'https://app.example.test/callback';
export const CANCEL = 'https://app.example.test/cancelled';

/** A creator, their API key and their collection. */
export interface CreatorApp {
  member: Member;
  key: string;
  collection: OwnCollection;
}

/** A POST as a creator's app: with its API key (none when undefined). */
export function withKey(app: FastifyInstance, key: string | undefined, url: string, payload: object) {
  return app.inject({ method: 'POST', url, headers: key ? { 'x-api-key': key } : {}, payload });
}

/** The creator app calls of a test file's app `t`; `own()` is the file's own creator app (read when called). */
export function cappCalls(t: TestApp, own: () => CreatorApp) {
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
  ): Promise<CreatorApp> {
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
      itemCollectionId: own().collection._id,
      redirectUrl: REDIRECT,
      cancelUrl: CANCEL,
      customMessage: 'Bring your fleet to Orion',
      ...overrides,
    });
  }

  async function requestId(overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await ask(own().key, overrides);
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

  function itemsOf(key: string | undefined, userId: string, itemCollectionId = own().collection._id) {
    return withKey(t.app, key, '/api/capp/getUserItems', { userId, itemCollectionId });
  }

  /** Creates the item `name` in the app's collection for `owner`, and answers it. */
  async function giveItem(owner: Member, name: string): Promise<Item> {
    const res = await call(t.app, own().member.token, 'POST', '/api/inventory/createItem', {
      itemCollection: own().collection._id,
      owner: owner.nickname,
      name,
      hiddendata: { serial: 'X-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ item: Item }>().item;
  }

  async function requestCount(): Promise<number> {
    const res = await t.built.database.db.execute<{ n: string }>(
      sql`SELECT count(*) AS n FROM capp_auth_requests WHERE collection_id = ${own().collection._id}`,
    );
    return Number(res.rows[0]?.n);
  }

  async function accessLogTypes(userId: string): Promise<number[]> {
    const res = await t.built.database.db.execute<{ login_type: number }>(
      sql`SELECT login_type FROM access_logs WHERE user_id = ${userId} ORDER BY created_at`,
    );
    return res.rows.map((r) => Number(r.login_type));
  }

  return {
    newKey,
    makeCreator,
    ask,
    requestId,
    signIn,
    codeFor,
    redeem,
    itemsOf,
    giveItem,
    requestCount,
    accessLogTypes,
  };
}
