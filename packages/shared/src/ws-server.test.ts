import { describe, expect, it } from 'vitest';
import { readWsServerMessage } from './ws-server.ts';

describe('readWsServerMessage', () => {
  it('reads a message of a known type as it came', () => {
    const frame = JSON.stringify({ type: 'balances', balances: [{ currencyId: 1, amount: '12.50' }] });
    expect(readWsServerMessage(frame)).toEqual({ type: 'balances', balances: [{ currencyId: 1, amount: '12.50' }] });
    expect(readWsServerMessage('{"type":"pong"}')).toEqual({ type: 'pong' });
  });

  it.each([
    ['not JSON', 'not json'],
    ['JSON that is not an object', '"pong"'],
    ['null', 'null'],
    ['an object without a type', '{"balances":[]}'],
    ['an unknown type', '{"type":"shutdown"}'],
    ['a type that is not text', '{"type":1}'],
  ])('drops %s', (_what, frame) => {
    expect(readWsServerMessage(frame)).toBeNull();
  });
});
