/** The currency list's live updates: pushed currencies merged in, unknown ones refetched. */
import type { Currency } from '@starlight/shared';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testCurrency } from '../test/fixtures.ts';
import { applyPushedCurrencies, refetchIfUnknown } from './currencies.ts';
import { queryKeys } from './query-keys.ts';

const currency = (currencyId: number, name = `Coin ${currencyId}`): Currency => testCurrency(currencyId, { name });

let stored: Map<string, string>;
beforeEach(() => {
  stored = new Map();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => stored.set(k, v),
    removeItem: (k: string) => stored.delete(k),
  });
});

describe('applyPushedCurrencies', () => {
  it('replaces a changed currency and adds a new one in id order; the stored copy follows, its window kept', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.currencies, [currency(1), currency(3)]);
    stored.set('nextGetCurrencies', '123');
    applyPushedCurrencies(client, [currency(3, 'Renamed'), currency(2)]);
    const list = client.getQueryData<Currency[]>(queryKeys.currencies);
    expect(list?.map((c) => [c.currencyId, c.name])).toEqual([
      [1, 'Coin 1'],
      [2, 'Coin 2'],
      [3, 'Renamed'],
    ]);
    expect(JSON.parse(stored.get('currencies') ?? '[]')).toEqual(list);
    expect(stored.get('nextGetCurrencies')).toBe('123');
  });

  it('with no list loaded, drops the stored copy so the next read fetches', () => {
    const client = new QueryClient();
    stored.set('currencies', '[]');
    stored.set('nextGetCurrencies', String(Date.now() + 1e6));
    applyPushedCurrencies(client, [currency(9)]);
    expect(stored.has('currencies')).toBe(false);
    expect(stored.has('nextGetCurrencies')).toBe(false);
  });
});

describe('refetchIfUnknown', () => {
  it('fetches the list again when a balance names a currency it lacks, once per unknown id', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.currencies, [currency(1)]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    refetchIfUnknown(client, [1]);
    expect(invalidate).not.toHaveBeenCalled();
    stored.set('currencies', '[]');
    refetchIfUnknown(client, [1, 41]);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(stored.has('currencies')).toBe(false);
    refetchIfUnknown(client, [41]);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
