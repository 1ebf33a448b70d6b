/**
 * The mocked API's guard (answer.ts): an answer is sent as its route's response schema parses it, and an
 * answer of the wrong shape fails the test that made it (setup.ts throws the drift after the test), naming
 * the route and the Zod issue; a lost answer is a network error.
 */
import { currenciesResponse, p2pTransferResponse } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { answers, conform, lose, refuse, takeDrifts } from './answer.ts';
import { testCurrency, testUser } from './fixtures.ts';
import { server } from './setup.ts';

async function get(path: string) {
  const res = await fetch(`/api${path}`);
  return { status: res.status, body: await res.json() };
}

describe('answers', () => {
  it('sends the body as the schema parses it: fields the server would not send are dropped', async () => {
    const coin = testCurrency(1);
    server.use(
      answers.get('/bank/currencies', currenciesResponse, () => ({
        currencies: [{ ...coin, secret: 'x' } as typeof coin],
        message: 'OK',
      })),
    );
    expect(await get('/bank/currencies')).toEqual({ status: 200, body: { currencies: [coin], message: 'OK' } });
    expect(takeDrifts()).toEqual([]);
  });

  it('fails a handler answering a wrong shape, naming the route and the issue', async () => {
    const { ticker: _, ...noTicker } = testCurrency(1);
    server.use(
      answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [noTicker], message: 'OK' }) as never),
    );
    const answered = await get('/bank/currencies');
    const drifts = takeDrifts();
    expect(drifts).toHaveLength(1);
    expect(drifts[0]?.message).toContain('Mocked answer of GET /api/bank/currencies drifts from its response schema');
    expect(drifts[0]?.message).toContain('at currencies[0].ticker');
    // The page sees a server error, not the drifted body.
    expect(answered).toEqual({ status: 500, body: { message: drifts[0]?.message } });
  });

  it('holds a refusal to the shared error shape and to a 4xx status', async () => {
    server.use(
      answers.post('/bank/p2pTransfer', p2pTransferResponse, () =>
        refuse(409, 'Invalid amount', [{ field: 'amount', message: '"amount" is required' }]),
      ),
      answers.get('/bank/currencies', currenciesResponse, () => refuse(500, 'Internal')),
    );
    const refused = await fetch('/api/bank/p2pTransfer', { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      message: 'Invalid amount',
      errors: [{ field: 'amount', message: '"amount" is required' }],
    });
    expect(takeDrifts()).toEqual([]);

    expect((await get('/bank/currencies')).status).toBe(500);
    expect(takeDrifts().map((d) => d.message)).toEqual(['GET /api/bank/currencies: a refusal is a 4xx, not 500']);
  });

  it('loses an answer as a network error, with no body to check', async () => {
    server.use(answers.post('/bank/p2pTransfer', p2pTransferResponse, () => lose()));
    await expect(fetch('/api/bank/p2pTransfer', { method: 'POST' })).rejects.toThrow(TypeError);
    expect(takeDrifts()).toEqual([]);
  });

  it('conform returns what goes on the wire, or throws with every issue', () => {
    const sent = { senderUser: testUser('alice'), message: 'Transfer complete' };
    expect(conform('POST /api/bank/p2pTransfer', p2pTransferResponse, sent)).toEqual(sent);
    expect(() =>
      conform('POST /api/bank/p2pTransfer', p2pTransferResponse, { senderUser: {}, message: 'Transfer complete' }),
    ).toThrow(/POST \/api\/bank\/p2pTransfer drifts[\s\S]*at senderUser\._id/);
  });
});
