/**
 * The read cases of `make bench-scale`: every read route a visitor, a member (`member1`, the
 * heaviest history of a seeded database) and an admin use, from the route files under
 * apps/server/src/modules (request shapes: packages/shared/src/schemas). Each case is one route with
 * one body, run at the bench's connections; any non-2xx answer fails it.
 */
import type { RawRequest } from 'autocannon';
import type { Api } from '../lib/api.ts';
import { measureCpu } from '../lib/cpu.ts';
import { type LoadResult, runLoad } from '../lib/load.ts';
import { type Figures, round } from '../lib/results.ts';
import type { Audience, ReadFigures } from '../lib/scale.ts';

/** What the read cases need to know about the database under test (found through the API). */
export interface ReadFixture {
  /** A currency most members hold (the leaderboard's, the stats'). */
  currencyId: number;
  /** A currency `member1` holds but ranks outside its top 100 in, as most members do (null: none, and that case is skipped). */
  outsideTopCurrencyId: number | null;
  /** The pair with the biggest open book. */
  pair: string;
  /** A collection `member1` holds items in (null: none, and the grouped-items case is skipped). */
  collection: string | null;
  /** A member `member1` dealt with (the history's other-party filter). */
  counterparty: string | null;
  memberNickname: string;
  memberToken: string;
  adminToken: string;
  /** A nickname search that matches a part of many nicknames (`member123`: 1,111 at a million). */
  nicknameSearch: string;
  /** A deep page of getUsers (50 a page): far into a million members. */
  deepUsersPage: number;
}

export interface ReadCase {
  name: string;
  audience: Audience;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** A case before its audience: POST unless it says GET. */
type CaseSpec = Omit<ReadCase, 'audience' | 'method'> & { method?: ReadCase['method'] };
const as = (audience: Audience, specs: CaseSpec[]): ReadCase[] =>
  specs.map((c) => ({ ...c, method: c.method ?? 'POST', audience }));

const paging = (page = 1, limit = 20) => ({ paging: { page, limit } });
/** An ISO date `days` before now (the seeded ledger spans two years). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** Every read case on `f`, visitors first, then member1, then the admin. */
export function readCases(f: ReadFixture): ReadCase[] {
  const { currencyId, pair } = f;
  const visitor = as('visitor', [
    { name: 'visitor_leaderboard', path: '/api/user/leaderboard', body: { currencyId } },
    { name: 'visitor_currencies', method: 'GET', path: '/api/bank/currencies' },
    { name: 'visitor_pairs', method: 'GET', path: '/api/cex/getPairs' },
    { name: 'visitor_order_book', path: '/api/cex/getOrders', body: { pair } },
    { name: 'visitor_depth', path: '/api/cex/getDepth', body: { pair } },
    // The Quantum Hub's book as it opens: 20 price levels a side.
    { name: 'visitor_hub_levels', path: '/api/cex/getDepth', body: { pair, levels: 20 } },
    { name: 'visitor_trades', path: '/api/cex/getTrades', body: { pair, limit: 50 } },
    { name: 'visitor_candles_1h', path: '/api/cex/getCandles', body: { pair, interval: '1h' } },
    { name: 'visitor_candles_1d', path: '/api/cex/getCandles', body: { pair, interval: '1d', limit: 730 } },
    {
      name: 'visitor_supply_history',
      path: '/api/bank/supplyHistory',
      body: { currencyId, interval: '1d', limit: 366 },
    },
    // The /analytics page's one call: every currency's week of hours (its Hourly view).
    {
      name: 'visitor_analytics_supply',
      path: '/api/bank/supplyHistories',
      body: { interval: '1h', limit: 168 },
    },
    { name: 'visitor_recipes', method: 'GET', path: '/api/forge/recipes/fetch' },
    { name: 'visitor_packages', method: 'GET', path: '/api/checkout/packages/fetch' },
    { name: 'visitor_collections', path: '/api/inventory/getCollections', body: {} },
    { name: 'visitor_synth_chips', method: 'GET', path: '/api/inventory/synthChips' },
    // The marketplace's Browse (DESIGN §11.5): newest first, cheapest in a currency, a name's prefix, a collection.
    { name: 'visitor_market_newest', path: '/api/market/listings', body: paging() },
    { name: 'visitor_market_cheapest', path: '/api/market/listings', body: { ...paging(), currencyId, sort: 'price' } },
    { name: 'visitor_market_name', path: '/api/market/listings', body: { ...paging(), name: 'Blades', sort: 'price' } },
    { name: 'visitor_market_page_20', path: '/api/market/listings', body: paging(20) },
    { name: 'visitor_drop_table', method: 'GET', path: '/api/inventory/dropTable' },
    { name: 'visitor_defcon', method: 'GET', path: '/api/audit/getDefconLevel' },
  ]);
  const member = as('member', [
    { name: 'member_me', method: 'GET', path: '/api/user/me' },
    { name: 'member_leaderboard', path: '/api/user/leaderboard', body: { currencyId } },
    ...(f.outsideTopCurrencyId !== null
      ? [
          {
            name: 'member_leaderboard_outside_top',
            path: '/api/user/leaderboard',
            body: { currencyId: f.outsideTopCurrencyId },
          },
        ]
      : []),
    { name: 'member_history', path: '/api/bank/transactions', body: paging() },
    { name: 'member_history_page_100', path: '/api/bank/transactions', body: paging(100) },
    { name: 'member_history_currency', path: '/api/bank/transactions', body: { ...paging(), currencyId } },
    { name: 'member_history_category', path: '/api/bank/transactions', body: { ...paging(), category: 3 } },
    {
      name: 'member_history_dates',
      path: '/api/bank/transactions',
      body: { ...paging(), startDate: daysAgo(400), endDate: daysAgo(300) },
    },
    // A jump to a date a year back: the page holding that day's newest row, found by the member's own index.
    {
      name: 'member_history_seek_date',
      path: '/api/bank/transactions',
      body: { ...paging(), seekDate: daysAgo(365).slice(0, 10) },
    },
    { name: 'member_history_amount', path: '/api/bank/transactions', body: { ...paging(), amountAbove: '100' } },
    ...(f.counterparty
      ? [
          {
            name: 'member_history_party',
            path: '/api/bank/transactions',
            body: { ...paging(), nickname: f.counterparty },
          },
        ]
      : []),
    {
      name: 'member_history_all_filters',
      path: '/api/bank/transactions',
      body: { ...paging(), currencyId, category: 3, startDate: daysAgo(730), endDate: daysAgo(0), amountAbove: '0.01' },
    },
    // The bell and the notifications page (DESIGN §11.3): the member's own rows beside the broadcasts.
    { name: 'member_notifications', path: '/api/user/notifications', body: paging(1, 10) },
    { name: 'member_notifications_unread', path: '/api/user/notifications', body: { ...paging(), unreadOnly: true } },
    { name: 'member_notifications_page_20', path: '/api/user/notifications', body: paging(20) },
    { name: 'member_own_orders', method: 'GET', path: '/api/cex/getUserOrders' },
    { name: 'member_my_listings', path: '/api/market/myListings', body: paging(1, 10) },
    // The Quantum Hub as member1 opens it: the book's levels and My orders' first page (Open, this pair),
    // then the other filters, every pair, and a deeper page; the dashboard's open orders (five).
    { name: 'member_hub_levels', path: '/api/cex/getDepth', body: { pair, levels: 20 } },
    { name: 'member_hub_my_orders_open', path: '/api/cex/getMyOrdersPage', body: { state: 1, pair, ...paging(1, 10) } },
    {
      name: 'member_hub_my_orders_filled',
      path: '/api/cex/getMyOrdersPage',
      body: { state: 3, pair, ...paging(1, 10) },
    },
    { name: 'member_hub_my_orders_cancelled', path: '/api/cex/getMyOrdersPage', body: { state: 2, ...paging(1, 10) } },
    { name: 'member_hub_my_orders_page_20', path: '/api/cex/getMyOrdersPage', body: { state: 3, ...paging(20, 10) } },
    { name: 'member_dashboard_open_orders', path: '/api/cex/getMyOrdersPage', body: { state: 1, ...paging(1, 5) } },
    { name: 'member_forge_processes', path: '/api/forge/getForgeProcesses', body: paging() },
    { name: 'member_checkouts', path: '/api/checkout/getTransactions', body: paging() },
    { name: 'member_items', path: '/api/inventory/getUserItems', body: paging() },
    ...(f.collection
      ? [
          {
            name: 'member_collection_items',
            path: '/api/inventory/getItems',
            body: { itemCollection: f.collection, ...paging() },
          },
          {
            name: 'member_items_grouped',
            path: '/api/inventory/getUserItemsGrouped',
            body: { filters: { itemCollection: f.collection }, ...paging() },
          },
          {
            name: 'member_market_collection',
            path: '/api/market/listings',
            body: { itemCollectionId: f.collection, sort: 'price', ...paging() },
          },
        ]
      : []),
  ]);
  const admin = as('admin', [
    { name: 'admin_get_users', path: '/api/user/getUsers', body: paging(1, 50) },
    { name: 'admin_get_users_deep', path: '/api/user/getUsers', body: paging(f.deepUsersPage, 50) },
    {
      name: 'admin_get_users_search',
      path: '/api/user/getUsers',
      body: { ...paging(1, 50), nickname: f.nicknameSearch },
    },
    { name: 'admin_user_stats', path: '/api/user/getUserStats', body: {} },
    // Cex Control's View Orders of the busiest pair: each side's first page, and a deep page of the sells.
    { name: 'admin_view_orders_buys', path: '/api/cex/getBookPage', body: { pair, buySide: true, ...paging(1, 20) } },
    {
      name: 'admin_view_orders_sells_page_50',
      path: '/api/cex/getBookPage',
      body: { pair, buySide: false, ...paging(50, 20) },
    },
    {
      name: 'admin_user_stats_range',
      path: '/api/user/getUserStats',
      body: { startDate: daysAgo(365), endDate: daysAgo(0) },
    },
    { name: 'admin_access_logs', path: '/api/audit/getAccessLogs', body: paging(1, 50) },
    {
      name: 'admin_access_logs_user',
      path: '/api/audit/getAccessLogs',
      body: { ...paging(1, 50), user: f.memberNickname },
    },
    { name: 'admin_admin_logs', path: '/api/audit/getAdminLogs', body: paging(1, 50) },
    { name: 'admin_all_transactions', path: '/api/bank/alltransactions', body: paging(1, 50) },
    { name: 'admin_all_transactions_deep', path: '/api/bank/alltransactions', body: paging(1000, 50) },
    {
      name: 'admin_all_transactions_seek_date',
      path: '/api/bank/alltransactions',
      body: { ...paging(1, 50), seekDate: daysAgo(365).slice(0, 10) },
    },
    // A currency alone: a page per category of the ledger's (currency, category, time) index, merged.
    {
      name: 'admin_all_transactions_currency',
      path: '/api/bank/alltransactions',
      body: { ...paging(1, 50), currencyId },
    },
    {
      name: 'admin_all_transactions_currency_deep',
      path: '/api/bank/alltransactions',
      body: { ...paging(100, 50), currencyId },
    },
    // A category and an amount over the whole ledger: a page per currency of the category, each row's amount
    // compared, and its matches counted up to the bound (transfers of 100 or more: rare in most currencies).
    {
      name: 'admin_all_transactions_category_amount',
      path: '/api/bank/alltransactions',
      body: { ...paging(1, 50), category: 3, amountAbove: '100' },
    },
    {
      name: 'admin_all_transactions_filtered',
      path: '/api/bank/alltransactions',
      body: { ...paging(1, 50), currencyId, category: 3, nickname: f.memberNickname },
    },
    { name: 'admin_forge_processes', path: '/api/forge/getForgeProcessesAll', body: paging(1, 50) },
    {
      name: 'admin_forge_processes_member',
      path: '/api/forge/getForgeProcessesAll',
      body: { ...paging(1, 50), filters: { nickname: f.memberNickname } },
    },
    { name: 'admin_checkouts', path: '/api/checkout/getAllTransactions', body: paging(1, 50) },
    {
      name: 'admin_checkouts_state',
      path: '/api/checkout/getAllTransactions',
      body: { ...paging(1, 50), filters: { state: 9 } },
    },
    { name: 'admin_settlements', path: '/api/bank/getSettlements', body: paging(1, 50) },
    { name: 'admin_currency_stats', path: '/api/bank/currencyStats', body: {} },
    {
      name: 'admin_currency_stats_range',
      path: '/api/bank/currencyStats',
      body: { currencyId, startDate: daysAgo(30), endDate: daysAgo(0) },
    },
    { name: 'admin_supply_history', path: '/api/bank/supplyHistory', body: { currencyId, interval: '1h', limit: 366 } },
    { name: 'admin_audit', method: 'GET', path: '/api/bank/audit' },
  ]);
  return [...visitor, ...member, ...admin];
}

/** The request of `c` (the caller's token by audience). */
export function rawRequest(c: ReadCase, f: Pick<ReadFixture, 'memberToken' | 'adminToken'>): RawRequest {
  const headers: Record<string, string> = {};
  if (c.audience === 'member') headers.authorization = `Bearer ${f.memberToken}`;
  if (c.audience === 'admin') headers.authorization = `Bearer ${f.adminToken}`;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  return {
    method: c.method,
    path: c.path,
    headers,
    ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
  };
}

/**
 * Runs read case `c` against `url`: one checked call first (a non-2xx answer is logged with its body),
 * `warmupS` unmeasured, then `durationS` measured at `connections`.
 */
export async function runReadCase(
  url: string,
  c: ReadCase,
  f: ReadFixture,
  settings: { connections: number; durationS: number; warmupS: number },
  log: (message: string) => void,
  measured?: { serverPid: number; database: string },
): Promise<ReadFigures & Figures> {
  const req = rawRequest(c, f);
  const probe = await fetch(`${url}${c.path}`, {
    method: c.method,
    headers: req.headers ?? {},
    ...(req.body !== undefined ? { body: req.body as string } : {}),
  });
  const text = await probe.text();
  if (!probe.ok) log(`${c.name}: ${c.method} ${c.path} -> ${probe.status}: ${text.slice(0, 300)}`);
  const { connections, durationS, warmupS } = settings;
  if (warmupS > 0) await runLoad({ url, connections, durationS: warmupS, request: () => req });
  const stopCpu = measured ? measureCpu(measured.serverPid, measured.database) : () => null;
  const load: LoadResult = await runLoad({ url, connections, durationS, request: () => req });
  const cpu = stopCpu();
  // CPU time per answered request (microseconds): what a request costs, whatever the machine's noise.
  const perRequest = (pct: number) => (load.okPerSecond > 0 ? Math.round((pct / 100 / load.okPerSecond) * 1e6) : null);
  const other = Object.entries(load.statusCodes).filter(([code]) => !code.startsWith('2'));
  return {
    case: c.name,
    audience: c.audience,
    route: `${c.method} ${c.path}`,
    requests_per_s: round(load.okPerSecond),
    p50_ms: load.p50Ms,
    p99_ms: load.p99Ms,
    errors: load.errors,
    non2xx: load.non2xx,
    ...(other.length > 0 ? { status_codes: Object.fromEntries(other) } : {}),
    response_bytes: text.length,
    connections,
    duration_s: load.durationS,
    ...(cpu
      ? {
          cpu_pct: cpu,
          server_us_per_request: perRequest(cpu.server),
          postgres_us_per_request: perRequest(cpu.postgres),
        }
      : {}),
  };
}

/** Finds the fixture on the server at `api`: the currency, the busiest pair, member1's collection and a counterparty. */
export async function findFixture(
  api: Api,
  tokens: { memberNickname: string; memberToken: string; adminToken: string },
  members: number,
): Promise<ReadFixture> {
  const { currencies } = await api.get<{ currencies: Array<{ currencyId: number }> }>('/api/bank/currencies');
  const currencyId = currencies.some((c) => c.currencyId === 1) ? 1 : (currencies[0]?.currencyId ?? 1);
  const { pairs } = await api.get<{ pairs: Array<{ _id: string }> }>('/api/cex/getPairs');
  let pair = pairs[0]?._id ?? '';
  let most = -1;
  for (const p of pairs) {
    const book = await api.post<unknown>('/api/cex/getOrders', { pair: p._id }).catch(() => null);
    const size = JSON.stringify(book).length;
    if (size > most) {
      most = size;
      pair = p._id;
    }
  }
  // A failing route here fails its own read case later; the fixture does without it.
  let outsideTopCurrencyId: number | null = null;
  for (const c of currencies) {
    const board = await api
      .post<{ position: number | null }>('/api/user/leaderboard', { currencyId: c.currencyId }, tokens.memberToken)
      .catch(() => ({ position: null }));
    if (board.position !== null && board.position > 100) {
      outsideTopCurrencyId = c.currencyId;
      break;
    }
  }
  const items = await api
    .post<{ data: Array<{ itemCollection: string }> }>('/api/inventory/getUserItems', paging(1, 5), tokens.memberToken)
    .catch(() => ({ data: [] }));
  const history = await api
    .post<{
      txs: Array<{ sender: { nickname: string } | null; recipient: { nickname: string } | null }>;
    }>('/api/bank/transactions', { ...paging(1, 50), category: 3 }, tokens.memberToken)
    .catch(() => ({ txs: [] }));
  const counterparty =
    history.txs
      .flatMap((t) => [t.sender?.nickname, t.recipient?.nickname])
      .find((n) => n !== undefined && n !== tokens.memberNickname) ?? null;
  return {
    currencyId,
    outsideTopCurrencyId,
    pair,
    collection: items.data[0]?.itemCollection ?? null,
    counterparty,
    memberNickname: tokens.memberNickname,
    memberToken: tokens.memberToken,
    adminToken: tokens.adminToken,
    nicknameSearch: 'member123',
    // Half way through the members, 50 a page.
    deepUsersPage: Math.max(1, Math.floor(members / 100)),
  };
}
