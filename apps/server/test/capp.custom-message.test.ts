/**
 * A creator app's custom message is plain text (SPEC §5: up to 128): markup, control and bidi characters
 * are refused with a clear message and no request is opened; plain text is stored and answered as sent.
 */
import { CAPP_MESSAGE_NOT_PLAIN, type GetAuthRequestResponse, type OwnCollection } from '@starlight/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { cappCalls } from './capp.helpers.ts';
import { call, type Member, useTestApp } from './helpers.ts';

const t = useTestApp();
let creator: Member;
let creatorKey: string;
let collection: OwnCollection;
const { makeCreator, ask, requestId, requestCount } = cappCalls(t, () => ({
  member: creator,
  key: creatorKey,
  collection,
}));

beforeAll(async () => {
  ({ member: creator, key: creatorKey, collection } = await makeCreator('cmsg'));
});

describe('createAuthRequest customMessage', () => {
  it.each([
    ['a tag', 'Hi <img src=x onerror=alert(1)>'],
    ['a closing bracket alone', 'level > 5'],
    ['a nested tag', '<scr<script>ipt>alert(1)</script>'],
    ['a line break', 'line one\nline two'],
    ['a bidi override', 'Grant \u202Eevil\u202C access'],
  ])('refuses %s and opens no request', async (_what, customMessage) => {
    const before = await requestCount();
    const res = await ask(creatorKey, { customMessage });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(CAPP_MESSAGE_NOT_PLAIN);
    expect(await requestCount()).toBe(before);
  });

  it('stores plain text, quotes and ampersands included, and answers it as sent', async () => {
    const customMessage = `Bring "your" fleet & crew to Orion's belt — 5 ships max`;
    const id = await requestId({ customMessage });
    const res = await call(t.app, undefined, 'POST', '/api/capp/getAuthRequest', { requestId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<GetAuthRequestResponse>().data.customMessage).toBe(customMessage);
  });
});
