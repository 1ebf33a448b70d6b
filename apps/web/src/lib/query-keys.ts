/**
 * Every query key of the web app's server data, in one place, so a mutation or the live feed refreshes
 * exactly what it changed whichever feature shows it.
 */
export const queryKeys = {
  /** GET /api/user/me for a session token (the member with fresh balances). */
  me: (token: string | null) => ['me', token] as const,
  meAll: ['me'] as const,
  /** SPEC's one key (`getApiKey`, the key named Default) for a session token. */
  apiKey: (token: string | null) => ['api-key', token] as const,
  /** GET /api/user/apiKeys for a session token (DESIGN §11.2). */
  apiKeys: (token: string | null) => ['api-keys', token] as const,
  /** POST /api/user/getUserApiKeys of a member (admin, DESIGN §11.2). */
  userApiKeys: (nickname: string) => ['admin', 'user-api-keys', nickname] as const,
  /** POST /api/bank/withdrawAddresses for a session token (DESIGN §11.2). */
  withdrawAddresses: (token: string | null) => ['withdraw-addresses', token] as const,
  /** POST /api/bank/getUserWithdrawAddresses of a member (admin, DESIGN §11.2). */
  userWithdrawAddresses: (nickname: string) => ['admin', 'user-withdraw-addresses', nickname] as const,
  /** GET /api/user/sessions for a session token (DESIGN §11.1). */
  sessions: (token: string | null) => ['sessions', token] as const,
  /** GET /api/user/passkeys for a session token (DESIGN §11.1). */
  passkeys: (token: string | null) => ['passkeys', token] as const,
  currencies: ['currencies'] as const,
  /** POST /api/user/notifications for a session token, per request body (DESIGN §11.3). */
  notifications: (token: string | null, body: unknown) => ['notifications', token, body] as const,
  notificationsAll: ['notifications'] as const,
  /** GET /api/user/notificationSettings for a session token. */
  notificationSettings: (token: string | null) => ['notification-settings', token] as const,
  /** POST /api/audit/broadcasts pages (admin). */
  broadcasts: ['admin', 'broadcasts'] as const,
  /** POST /api/capp/getAuthRequest: a creator app's consent request. */
  cappAuthRequest: (requestId: string) => ['capp', 'auth-request', requestId] as const,
  /** Ledger pages: own (`transactions`) and every member's (`alltransactions`). */
  transactions: (scope: 'own' | 'all', body: unknown) => ['transactions', scope, body] as const,
  transactionsAll: ['transactions'] as const,
  /** POST /api/bank/supplyHistories: every currency's supply history (the /analytics page). */
  supplyHistories: (interval: string, limit: number) => ['supply-histories', interval, limit] as const,
  currencyStats: ['admin', 'currency-stats'] as const,
  /** Admin lists: users, user stats, access and admin logs (each with its request body). */
  adminUsers: ['admin', 'users'] as const,
  adminUserStats: ['admin', 'user-stats'] as const,
  accessLogs: ['admin', 'access-logs'] as const,
  adminLogs: ['admin', 'admin-logs'] as const,
  /** POST /api/user/getUserSessions: a member's live sessions as an admin sees them (DESIGN §11.1). */
  adminUserSessions: (nickname: string) => ['admin', 'user-sessions', nickname] as const,
  settlements: ['admin', 'settlements'] as const,
  /** POST /api/user/leaderboard of a currency for a session token (null: a visitor). */
  leaderboard: (currencyId: number, token: string | null) => ['leaderboard', currencyId, token] as const,
  checkout: {
    /** The packages the session may see (an admin sees unpublished and inactive ones too). */
    packagesAll: ['checkout', 'packages'] as const,
    packages: (token: string | null) => ['checkout', 'packages', token] as const,
    /** Checkout pages: own (`mine`) and every member's (`all`, admin), each with its request body. */
    transactionsAll: ['checkout', 'transactions'] as const,
    transactions: (scope: 'mine' | 'all', body: unknown) => ['checkout', 'transactions', scope, body] as const,
  },
  chips: {
    sale: ['chips', 'sale'] as const,
    dropTable: ['chips', 'drop-table'] as const,
  },
  items: {
    collectionsAll: ['items', 'collections'] as const,
    collections: (token: string | null) => ['items', 'collections', token] as const,
    /** The caller's items of a collection grouped by name, per request body. */
    grouped: (body: unknown) => ['items', 'grouped', body] as const,
    groupedAll: ['items', 'grouped'] as const,
    /** A collection's items as its creator manages them, per request body. */
    ofCollection: (body: unknown) => ['items', 'of-collection', body] as const,
    ofCollectionAll: ['items', 'of-collection'] as const,
    /** The collections the session's member holds items of, with their counts. */
    held: (token: string | null) => ['items', 'held', token] as const,
    heldAll: ['items', 'held'] as const,
  },
  market: {
    /** Everything of the marketplace: refetched after a listing, a cancel or a purchase. */
    all: ['market'] as const,
    /** POST /api/market/listings per request body (public). */
    listings: (body: unknown) => ['market', 'listings', body] as const,
    /** POST /api/market/listingsByItem per request body (public). */
    byItem: (body: unknown) => ['market', 'byItem', body] as const,
    /** POST /api/market/myListings per session token and request body. */
    mine: (token: string | null, body: unknown) => ['market', 'mine', token, body] as const,
  },
  forge: {
    /** The recipes the session may see (an admin sees inactive ones too). */
    recipesAll: ['forge', 'recipes'] as const,
    recipes: (token: string | null) => ['forge', 'recipes', token] as const,
    /** Process pages: own (`mine`) and every member's (`all`, admin), each with its request body. */
    processesAll: ['forge', 'processes'] as const,
    processes: (scope: 'mine' | 'all', body: unknown) => ['forge', 'processes', scope, body] as const,
  },
  exchange: {
    /** Everything that follows a pair's book: refetched after a reconnect or an order of ours. */
    all: ['exchange'] as const,
    pairs: ['exchange', 'pairs'] as const,
    book: (pair: string) => ['exchange', 'book', pair] as const,
    depth: (pair: string) => ['exchange', 'depth', pair] as const,
    trades: (pair: string) => ['exchange', 'trades', pair] as const,
    candlesOf: (pair: string) => ['exchange', 'candles', pair] as const,
    candles: (pair: string, interval: string) => ['exchange', 'candles', pair, interval] as const,
    /** The member's own order pages, each with its request body (refetched on the feed's `orders` push). */
    myOrdersPages: ['exchange', 'my-orders'] as const,
    myOrdersPage: (token: string | null, body: unknown) => ['exchange', 'my-orders', token, body] as const,
    /** A page of one side of a pair's book (the admin's View Orders). */
    bookPagesOf: (pair: string) => ['exchange', 'book-page', pair] as const,
    bookPage: (pair: string, body: unknown) => ['exchange', 'book-page', pair, body] as const,
    /** POST /api/cex/portfolio for a session token, valued in one currency (DESIGN §11.4). */
    portfolio: (token: string | null, currencyId: number) => ['exchange', 'portfolio', token, currencyId] as const,
  },
};
