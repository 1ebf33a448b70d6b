/**
 * The API document for client authors: a typed client generated from `/api/docs/json`
 * (openapi-typescript types, committed in test/generated/api.d.ts and type-checked by `make test`, plus
 * openapi-fetch) signs members up and sends a transfer against a real listening server.
 * Set UPDATE_API_TYPES=1 to rewrite the committed types after an API change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { type OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './generated/api.d.ts';
import { amountValue, expectLedgerBalanced, PASSWORD, uniqueNick, useTestApp } from './helpers.ts';

const t = useTestApp();
const typesFile = fileURLToPath(new URL('./generated/api.d.ts', import.meta.url));
let baseUrl: string;

beforeAll(async () => {
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('the typed client generated from the OpenAPI document', () => {
  it('is generated from the document the server serves today', async () => {
    const res = await fetch(`${baseUrl}/api/docs/json`);
    expect(res.status).toBe(200);
    const types = await openapiTS((await res.json()) as OpenAPI3);
    if (process.env.UPDATE_API_TYPES === '1') writeFileSync(typesFile, types);
    expect(types, 'run the test with UPDATE_API_TYPES=1 to regenerate test/generated/api.d.ts').toBe(
      readFileSync(typesFile, 'utf8'),
    );
  });

  it('registers two members, mints and transfers through p2pTransfer', async () => {
    const api = createClient<paths>({ baseUrl });
    const register = async () => {
      const nickname = uniqueNick('cl');
      const { data, response } = await api.POST('/api/user/register', {
        body: { nickname, email: `${nickname}@example.test`, password: PASSWORD },
      });
      expect(response.status).toBe(200);
      return { nickname, token: data?.token ?? '' };
    };
    const alice = await register();
    const bob = await register();
    const asAdmin = { Authorization: `Bearer ${t.admin.token}` };
    const minted = await api.POST('/api/bank/mint', {
      headers: asAdmin,
      body: { recipientNickName: alice.nickname, currencyId: 1, amount: '100', note: 'typed client' },
    });
    expect(minted.response.status).toBe(200);

    const sent = await api.POST('/api/bank/p2pTransfer', {
      headers: { Authorization: `Bearer ${alice.token}` },
      body: { recipientNickName: bob.nickname, currencyId: 1, amount: '50', note: 'hi' },
    });
    expect(sent.response.status).toBe(200);
    expect(sent.data?.message).toBe(`Sent 49.50 SD to ${bob.nickname} (tax 0.50 SD)`);
    expect(sent.data?.senderUser.balances).toEqual([{ currencyId: 1, amount: '50.00' }]);

    const refused = await api.POST('/api/bank/p2pTransfer', {
      headers: { Authorization: `Bearer ${alice.token}` },
      body: { recipientNickName: bob.nickname, currencyId: 1, amount: '500' },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.message).toBe('Insufficient funds');

    const me = await api.GET('/api/user/me', { headers: { Authorization: `Bearer ${bob.token}` } });
    expect(amountValue(me.data?.user.balances.find((b) => b.currencyId === 1)?.amount)).toBe('49.5');
    await expectLedgerBalanced(t.app, t.admin);
  });
});
