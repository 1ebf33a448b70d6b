import { transactionsRequest } from '@starlight/shared';
import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaValidate } from '../form.ts';
import {
  filtersFromSearch,
  pickTxLogSearch,
  requestFromFilters,
  requestFromSearch,
  sameRequest,
  searchFromFilters,
  type TxLogFilters,
  txLogSearch,
  urlText,
  withLimit,
  withPage,
} from './tx-log-search.ts';

const EMPTY: TxLogFilters = {
  limit: '10',
  nickname: '',
  startDate: null,
  endDate: null,
  currencyId: '',
  category: '',
  amountAbove: '',
  amountBelow: '',
};

/** What the browser does: the router writes the search into the URL, a reload reads and validates it. */
function throughUrl(search: Record<string, unknown>): { query: string; search: ReturnType<typeof txLogSearch.parse> } {
  const query = defaultStringifySearch(search);
  return { query, search: txLogSearch.parse(defaultParseSearch(query)) };
}

describe('the transaction log search schema', () => {
  it('reads every filter and the page from a URL', () => {
    const search = txLogSearch.parse(
      defaultParseSearch(
        '?txPage=3&txLimit=20&txNickname=bob42&txFrom=2025-01-02&txTo=2025-02-03&txCurrency=2&txCategory=3&txAbove=10&txBelow=%2212.50%22',
      ),
    );
    expect(search).toEqual({
      txPage: 3,
      txLimit: 20,
      txNickname: 'bob42',
      txFrom: '2025-01-02',
      txTo: '2025-02-03',
      txCurrency: 2,
      txCategory: 3,
      txAbove: 10,
      txBelow: '12.50',
    });
  });

  it('drops invalid values instead of failing', () => {
    const search = txLogSearch.parse(
      defaultParseSearch(
        '?txPage=0&txLimit=15&txNickname=a%20b&txFrom=yesterday&txTo=2025-13-40&txCurrency=x&txCategory=99&txAbove=-1&txBelow=abc',
      ),
    );
    expect(pickTxLogSearch(search)).toEqual({});
    expect(pickTxLogSearch(txLogSearch.parse({ txPage: 2.5, txAbove: '1e3', txNickname: true }))).toEqual({});
    expect(pickTxLogSearch(txLogSearch.parse({ txPage: [1], txCategory: { a: 1 } }))).toEqual({});
  });

  it('reads a digits-only nickname typed into the URL (JSON-parsed to a number) as text', () => {
    const search = txLogSearch.parse(defaultParseSearch('?txNickname=123'));
    expect(filtersFromSearch(search).nickname).toBe('123');
    expect(requestFromSearch(search).nickname).toBe('123');
  });
});

describe('filters <-> URL', () => {
  it('writes a submitted form as page 1 with the defaults left out', () => {
    expect(searchFromFilters(EMPTY)).toEqual({});
    expect(searchFromFilters({ ...EMPTY, nickname: '  bob  ', category: '3', startDate: '2025-01-02' })).toEqual({
      txNickname: 'bob',
      txCategory: 3,
      txFrom: '2025-01-02',
    });
    expect(searchFromFilters({ ...EMPTY, limit: '50', currencyId: '1' })).toEqual({ txLimit: 50, txCurrency: 1 });
  });

  it('keeps plain numbers readable in the URL and every typed text exact', () => {
    expect(throughUrl(searchFromFilters({ ...EMPTY, amountAbove: '10', amountBelow: '12.5' })).query).toBe(
      '?txAbove=10&txBelow=12.5',
    );
    // "12.50" would read back as 12.5 unquoted: the router quotes it, so it comes back as typed.
    const trailing = throughUrl(searchFromFilters({ ...EMPTY, amountAbove: '12.50' }));
    expect(filtersFromSearch(trailing.search).amountAbove).toBe('12.50');
    expect(throughUrl(searchFromFilters({ ...EMPTY, nickname: 'bob' })).query).toBe('?txNickname=bob');
  });

  it('round-trips any valid filters through the URL', () => {
    const decimal = fc
      .tuple(fc.nat({ max: 10 ** 12 }), fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }))
      .map(([w, f]) => (f === undefined ? String(w) : `${w}.${f}`));
    const nick = fc.stringMatching(/^[a-zA-Z0-9]{3,32}$/);
    const day = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const opt = <T>(a: fc.Arbitrary<T>, none: T) => fc.oneof(fc.constant(none), a);
    const filters: fc.Arbitrary<TxLogFilters> = fc.record({
      limit: fc.constantFrom('10', '20', '50'),
      nickname: opt(nick, ''),
      startDate: opt(day, null),
      endDate: opt(day, null),
      currencyId: opt(fc.integer({ min: 1, max: 40 }).map(String), ''),
      category: opt(
        fc.constantFrom('1', '2', '3', '4', '10', '11', '12', '13', '14', '20', '21', '22', '23', '33'),
        '',
      ),
      amountAbove: opt(decimal, ''),
      amountBelow: opt(decimal, ''),
    });
    fc.assert(
      fc.property(filters, (f) => {
        const { search } = throughUrl(searchFromFilters(f));
        expect(filtersFromSearch(search)).toEqual(f);
        expect(requestFromSearch(search)).toEqual(requestFromFilters(f));
      }),
    );
  });

  it('carries the market group in the Category filter, never with a category number', () => {
    const search = searchFromFilters({ ...filtersFromSearch({}), category: 'market' });
    expect(search).toEqual({ txGroup: 'market' });
    expect(filtersFromSearch(search).category).toBe('market');
    expect(requestFromSearch(search)).toEqual({ paging: { limit: 10, page: 1 }, categoryGroup: 'market' });
    expect(throughUrl(search).search).toEqual(search);
    expect(pickTxLogSearch(txLogSearch.parse({ txGroup: 'exchange' }))).toEqual({});
  });

  it('writes numbers only where they read back as the same text', () => {
    expect(urlText('10')).toBe(10);
    expect(urlText('0.5')).toBe(0.5);
    expect(urlText('10.50')).toBe('10.50');
    expect(urlText('007')).toBe('007');
    expect(urlText('Infinity')).toBe('Infinity');
    expect(urlText('NaN')).toBe('NaN');
    expect(urlText('  ')).toBeUndefined();
  });
});

describe('request and paging', () => {
  it('sends the page, the limit and only the filters that are set', () => {
    expect(requestFromSearch({})).toEqual({ paging: { limit: 10, page: 1 } });
    expect(
      requestFromSearch({ txPage: 2, txLimit: 20, txNickname: 'bob', txAbove: 10, txTo: '2025-01-31', txCategory: 4 }),
    ).toEqual({
      paging: { limit: 20, page: 2 },
      nickname: 'bob',
      amountAbove: '10',
      endDate: '2025-01-31',
      category: 4,
    });
  });

  it('leaves page 1 and limit 10 out of the URL; a new limit goes back to page 1', () => {
    expect(withPage({ txNickname: 'bob', txPage: 3 }, 1)).toEqual({ txNickname: 'bob', txPage: undefined });
    expect(withPage({ txNickname: 'bob' }, 2)).toEqual({ txNickname: 'bob', txPage: 2 });
    expect(withLimit({ txPage: 4, txLimit: 50 }, 10)).toEqual({ txPage: undefined, txLimit: undefined });
    expect(withLimit({ txPage: 4 }, 20)).toEqual({ txPage: undefined, txLimit: 20 });
  });

  it('tells a repeated search from a new one (a repeat refetches instead of navigating)', () => {
    expect(sameRequest({ txNickname: 'bob' }, searchFromFilters({ ...EMPTY, nickname: 'bob' }))).toBe(true);
    expect(sameRequest({ txNickname: 'bob', txPage: 2 }, searchFromFilters({ ...EMPTY, nickname: 'bob' }))).toBe(false);
    expect(sameRequest({ txAbove: 10 }, { txAbove: '10' })).toBe(true);
  });

  it('keeps only the log keys of a route search', () => {
    expect(pickTxLogSearch({ tab: 'tnx', view: 'admin', txPage: 2 } as Parameters<typeof pickTxLogSearch>[0])).toEqual({
      txPage: 2,
    });
  });

  it('lets the form refuse what the URL would drop, with the shared messages', () => {
    const validate = schemaValidate<TxLogFilters>(transactionsRequest, requestFromFilters);
    expect(validate({ ...EMPTY, nickname: 'a b', amountAbove: 'abc', amountBelow: '5' })).toEqual({
      nickname: '"nickname" contains an invalid value',
      amountAbove: '"amountAbove" contains an invalid value',
    });
    expect(validate({ ...EMPTY, nickname: 'bob', amountAbove: '1.5', startDate: '2025-01-02' })).toEqual({});
  });
});
