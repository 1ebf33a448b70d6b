/**
 * SQL of the ledger's lists (SPEC §2 Tnx Logs, §3 the member's transaction log; DESIGN §4), fast at
 * 10,000,000 rows. The list is newest first, ties by id. A party filter (the member's own
 * history, the nickname filters) is split into disjoint branches, each one ordered range of a party
 * index (`bank_tx_sender`, `bank_tx_recipient`, `bank_tx_executor_other`): each branch reads at most a
 * page's worth of rows in order and the branches are merged, so a member's page never sorts all their
 * rows. Without a party filter one ordered range of `bank_tx_created` is read, or, for a currency or a
 * category, ranges of `bank_tx_currency_category_created`: one (both given), one per category of the
 * currency, or one per currency of the category, merged as the party branches are (a rare currency's
 * rows are found without walking the whole ledger); a category group (`market`) is one such range per
 * category of the group, within the currency or per currency. The page's ids are found first and only those rows are read whole; the
 * total is counted up to a bound (`cappedTotal`).
 * Reads other modules' tables: `bank_transactions` (the ledger's: these are its lists), `users` (the nicknames each row shows, joined in the page's one statement) and `currencies` (the bank's: each row's ticker and precision, joined likewise).
 */
import {
  type Amount,
  formatAmount,
  LEDGER_COUNT_CAP,
  type Transaction,
  TX_CATEGORY,
  TX_CATEGORY_GROUPS,
  type TxCategoryGroup,
} from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type Db, type DbOrTx, queryNamed } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { idOfNickname } from '../../db/lists.ts';
import { type CappedTotal, countNow, pageSize, readWholeListPage, stableTotal, type TotalOf } from '../../db/paging.ts';
import { readWithGenericPlans } from '../../db/transaction.ts';
import { watermarkBefore } from '../../db/watermark.ts';
import { upTo } from '../../lib/lru.ts';
import { findCurrencies } from '../bank/bank.public.ts';
import { amountBound, amountBoundIds, amountBoundTotal, matchesUpToFew } from './amount-bound.queries.ts';
import { ledgerKeptTotal, ledgerPageStart, pageAroundDay, ROLLUP_STEP_MIN_OFFSET } from './ledger-paging.queries.ts';
import { readLedgerRows } from './ledger-rows.queries.ts';
import { minuteFloor } from './rollup.queries.ts';

export interface TxFilters {
  /** Restrict to rows where this user is sender or recipient (own history). */
  ownerId?: string | undefined;
  /** Own history: the other party's nickname. Admin: any party's nickname (sender, recipient or executor). */
  nickname?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  currencyId?: number | undefined;
  category?: number | undefined;
  /** Only the rows of this group's categories (`TX_CATEGORY_GROUPS`: `market` = 50 and 51). */
  categoryGroup?: TxCategoryGroup | undefined;
  /** Inclusive bounds on the amount (10^-9 units). */
  amountAbove?: Amount | undefined;
  amountBelow?: Amount | undefined;
  /** Seek: the page holding the newest row at or before the end of this day (UTC); `page` is then ignored. */
  seekDate?: string | undefined;
  limit: number;
  page: number;
}

/** The start of the day after `date` (an ISO date, UTC) as ISO text: rows at or before `date` are below it. */
function dayAfter(date: string): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00.000Z`);
  return new Date(d.getTime() + 86_400_000).toISOString();
}

/**
 * Up to how many of an account's rows in one party index a member's history with that account reads
 * from the account's side, rather than from the member's own (see `betweenBranches`).
 */
const SMALL_PARTY_ROWS = 2000;

/** The other party of a member's history filter: their id and their rows sent and received, each up to `SMALL_PARTY_ROWS`. */
interface OtherParty {
  id: string;
  sent: number;
  received: number;
}

/** Ours: how long a probed party size is kept (milliseconds). */
const PARTY_SIZE_TTL_MS = 60_000;

/**
 * How many rows of each party index an account's history with a member reads from that account's side
 * (`OtherParty`), as last probed, by account id, for up to `PARTY_SIZE_TTL_MS`: a plan hint only (either
 * branch of `betweenBranches` reads the same rows), so a stale one costs speed, never a wrong page. Probing
 * a big account (the chip sale's) reads thousands of index entries, a large part of a page. Per process.
 */
const partySizes = new LRUCache<string, { sent: number; received: number }>({
  ...upTo(10_000),
  ttl: PARTY_SIZE_TTL_MS,
});

/** The account named `nickname` (any case) with its rows counted as `OtherParty` says, or null for none. */
async function otherParty(db: DbOrTx, nickname: string): Promise<OtherParty | null> {
  const id = await idOfNickname(db, nickname);
  if (id === null) return null;
  let sizes = partySizes.get(id);
  if (!sizes) {
    // A constant, not a parameter: a LIMIT parameter is planned for a tenth of the table.
    const probeLimit = sql.raw(String(SMALL_PARTY_ROWS));
    const rows = await queryNamed<{ sent: number; received: number }>(
      db,
      'history_party_size',
      sql`
      SELECT (SELECT count(*)::int FROM (SELECT 1 FROM bank_transactions t WHERE t.sender_id = ${id}::bpchar
                                         LIMIT ${probeLimit}) s) AS sent,
             (SELECT count(*)::int FROM (SELECT 1 FROM bank_transactions t WHERE t.recipient_id = ${id}::bpchar
                                         LIMIT ${probeLimit}) r) AS received`,
    );
    sizes = { sent: Number(rows[0]?.sent ?? 0), received: Number(rows[0]?.received ?? 0) };
    partySizes.set(id, sizes);
  }
  return { id, ...sizes };
}

/**
 * The two disjoint branches of a member's (`me`) rows with `other`: sent to them, received from them. Each
 * reads the ordered range of ONE party, named by equality, and compares the other party as text, which no
 * index serves, so the plan kept for any ids (a prepared statement's generic plan) cannot pick the wrong
 * range: the other party's range when it is small (a member they dealt with: a few rows for the member's
 * thousands), the member's own when the other's is big (the chip sale account's millions). The range's size
 * comes from `otherParty`'s probe.
 */
function betweenBranches(me: string, other: OtherParty): SQL[] {
  const sentToThem =
    other.received < SMALL_PARTY_ROWS
      ? sql`t.recipient_id = ${other.id} AND t.sender_id::text = ${me}`
      : sql`t.sender_id = ${me} AND t.recipient_id::text = ${other.id}`;
  const receivedFromThem =
    other.sent < SMALL_PARTY_ROWS
      ? sql`t.sender_id = ${other.id} AND t.recipient_id::text = ${me}`
      : sql`t.recipient_id = ${me} AND t.sender_id::text = ${other.id}`;
  return [sentToThem, receivedFromThem];
}

/**
 * The disjoint conditions whose union is the party filter of `f` (each served by one party index), and
 * the id of the account the nickname names (`other`); null when the nickname names no account.
 * `[sql\`true\`]` when there is no party filter.
 */
async function partyBranches(
  db: DbOrTx,
  f: Pick<TxFilters, 'ownerId' | 'nickname'>,
): Promise<{ branches: SQL[]; other: string | null } | null> {
  const me = f.ownerId;
  if (me) {
    const other = f.nickname ? await otherParty(db, f.nickname) : null;
    if (f.nickname && other === null) return null;
    if (other && other.id !== me) return { branches: betweenBranches(me, other), other: other.id };
    // The member's own rows: sent, or received and not sent (a row of both is counted once); their own
    // nickname narrows nothing.
    return {
      branches: [sql`t.sender_id = ${me}`, sql`t.recipient_id = ${me} AND t.sender_id IS DISTINCT FROM ${me}`],
      other: other?.id ?? null,
    };
  }
  let other: string | null = null;
  if (f.nickname) {
    other = await idOfNickname(db, f.nickname);
    if (other === null) return null;
  }
  if (other === null) return { branches: [sql`true`], other };
  // Any party: sender; or recipient and not sender; or executor and neither (the partial index
  // bank_tx_executor_other holds only those rows: its predicate is repeated verbatim so the planner uses it).
  return {
    branches: [
      sql`t.sender_id = ${other}`,
      sql`t.recipient_id = ${other} AND t.sender_id IS DISTINCT FROM ${other}`,
      sql`t.executor_id = ${other} AND t.executor_id IS NOT NULL AND t.executor_id IS DISTINCT FROM t.sender_id
          AND t.executor_id IS DISTINCT FROM t.recipient_id`,
    ],
    other,
  };
}

/**
 * The branches of a currency filter without a party or a category: one per category of the ledger
 * (`Entry.category` is one of TX_CATEGORY's), each an ordered range of `bank_tx_currency_category_created`.
 * A rare currency's page then reads its own rows, where one range of `bank_tx_created` filtered by currency
 * walked the ledger back until it had a page (a rare currency's page read most of the ledger).
 */
const CATEGORY_BRANCHES: SQL[] = Object.values(TX_CATEGORY).map((c) => sql`t.category = ${sql.raw(String(c))}`);

/** `t.category IN (...)` of a category group, its members literal. */
function categoryIn(categories: readonly number[]): SQL {
  return sql`t.category IN (${sql.raw(categories.map((c) => String(Number(c))).join(', '))})`;
}

/**
 * The branches of a category filter without a party or a currency: one per currency (every ledger row's
 * currency has a row in `currencies`, which are never deleted), each an ordered range of
 * `bank_tx_currency_category_created`, so the ledger needs no (category, created_at, id) index of its own
 * (migration 0038: one index fewer for every row every money path writes).
 */
async function currencyBranches(db: DbOrTx): Promise<SQL[]> {
  const rows = await findCurrencies(db);
  return rows.map((r) => sql`t.currency_id = ${sql.raw(String(Number(r.currencyId)))}`);
}

/** `t.category = c` for each of `categories`, literal so each branch plans its own index range. */
const categoryBranches = (categories: readonly number[]): SQL[] =>
  categories.map((c) => sql`t.category = ${sql.raw(String(Number(c)))}`);

/**
 * The branches of a list without a party and without a single category (a single one: `currencyBranches`),
 * given its currency or not, and its category group or not: one per category of the group (or of the
 * ledger) within the currency, one per currency and category of the group without one; null when a
 * single range of the party-less list serves (no currency nor group, or both a currency and a category).
 */
async function keyBranches(db: DbOrTx, f: Omit<TxFilters, 'limit' | 'page'>): Promise<SQL[] | null> {
  if (f.category !== undefined) return f.currencyId === undefined ? currencyBranches(db) : null;
  const group = f.categoryGroup === undefined ? null : categoryBranches(TX_CATEGORY_GROUPS[f.categoryGroup]);
  if (f.currencyId !== undefined) return group ?? CATEGORY_BRANCHES;
  if (group === null) return null;
  const currencies = await currencyBranches(db);
  return currencies.flatMap((c) => group.map((g) => sql`${c} AND ${g}`));
}

/**
 * The matches of `f` as disjoint branches (conditions on `t`, each one ordered range of an index, see the
 * file's head) and the conditions every branch adds (`where`); `keys` those of them on the currency and
 * category alone, `amount` the amount bound's; `noParty` when no party narrows the list, `other` the account
 * a nickname names. Null when nothing can match (an unknown nickname).
 */
export async function ledgerMatch(db: DbOrTx, f: Omit<TxFilters, 'limit' | 'page'>) {
  const parties = await partyBranches(db, f);
  if (parties === null) return null;
  const noParty = f.ownerId === undefined && parties.other === null;
  const branches = (noParty ? await keyBranches(db, f) : null) ?? parties.branches;
  if (branches.length === 0) return null;
  const keys: SQL[] = [];
  if (f.currencyId !== undefined) keys.push(sql`t.currency_id = ${f.currencyId}`);
  if (f.category !== undefined) keys.push(sql`t.category = ${f.category}`);
  if (f.categoryGroup !== undefined) keys.push(categoryIn(TX_CATEGORY_GROUPS[f.categoryGroup]));
  const amount = amountBound(
    f.amountAbove === undefined ? undefined : formatAmount(f.amountAbove),
    f.amountBelow === undefined ? undefined : formatAmount(f.amountBelow),
  );
  const where = [...withinDates(sql`t.created_at`, f.startDate, f.endDate), ...keys, ...amount.inside];
  return { branches, where, keys, amount, noParty, other: parties.other };
}

/**
 * A page of ledger rows matching `f`, newest first (ties by id), with the total of matches: the same on
 * every page (`stableTotal` up to `LEDGER_COUNT_CAP`, `totalCapped` past it; exact from the rollup's counts
 * for a list the rollup keys). `totalOf`, when given, answers the total and the count a seek skips
 * instead of counting at once (see `TotalOf`). With `f.seekDate`, the page holding the newest match at or
 * before that day, found by counting the matches after it the same way (an index range from the day on:
 * the party's `(party, created_at)` index, or the rollup's days) and read from the day's end both ways
 * (`pageAroundDay`) when that count is exact, and `page` says which one it is (the last page when every
 * match is later).
 */
export async function findTransactions(
  db: Db,
  f: TxFilters,
  totalOf: TotalOf = countNow,
): Promise<{ txs: Transaction[]; page: number } & CappedTotal> {
  const match = await ledgerMatch(db, f);
  if (match === null) return { txs: [], total: 0, totalCapped: false, page: f.page };
  const { branches, where, noParty } = match;
  const parties = { other: match.other };
  const cond = (branch: SQL) => sql.join([branch, ...where], sql` AND `);
  // An amount bound on a currency or a category: each branch by its match count (amount-bound.queries.ts),
  // counted once for the page and the total.
  const undated = f.startDate === undefined && f.endDate === undefined;
  const byAmount = noParty && match.amount.inside.length > 0 && match.keys.length > 0;
  const matches = byAmount ? matchesUpToFew(db, branches.map(cond)) : null;
  // Awaited by the page and the total, but either may fail before it does: its own failure is then handled.
  matches?.catch(() => undefined);
  // The list's total without a party, dates or amounts comes from the rollup's counts (currency and
  // category are the rollup's own keys); no watermark yet (the rollup's first tick is under way): counted.
  const rollupTotal = noParty && undated && match.amount.inside.length === 0;
  // The matches from `from` on (ISO text; '-infinity' for all of them): the list's total, or what a seek skips.
  const countFrom = async (from: string): Promise<CappedTotal> => {
    if (matches !== null && undated && from === '-infinity') {
      const range = (b: SQL) => sql.join([b, ...match.keys], sql` AND `);
      const amountBranches = branches.map((b) => ({ cond: cond(b), range: range(b) }));
      return amountBoundTotal(db, amountBranches, match.amount, await matches, LEDGER_COUNT_CAP);
    }
    const w = rollupTotal ? await watermarkBefore(db, sql`ledger_rollup_state`) : '-infinity';
    if (w !== '-infinity') return ledgerKeptTotal(db, w, branches.map(cond), f, from);
    const since = from === '-infinity' ? [] : [sql`t.created_at >= ${from}::timestamptz`];
    const counted = sql.join(
      branches.map((b) => sql`SELECT 1 FROM bank_transactions t WHERE ${sql.join([cond(b), ...since], sql` AND `)}`),
      sql` UNION ALL `,
    );
    return stableTotal(db, sql`(${counted}) b`, LEDGER_COUNT_CAP);
  };
  // The total is the list's, whatever the page: kept per party until its next change (`totalOf`).
  const totalNow = totalOf(() => countFrom('-infinity'), f.ownerId ?? parties.other);
  let page = f.page;
  if (f.seekDate !== undefined) {
    const after = dayAfter(f.seekDate);
    const [all, newer] = await Promise.all([
      totalNow,
      totalOf(() => countFrom(after), f.ownerId ?? parties.other, `after ${after}`),
    ]);
    page = Math.floor(Math.max(0, Math.min(newer.total, all.total - 1)) / f.limit) + 1;
    // With the exact count of the rows after the day, the page is read from the day's end both ways.
    if (!newer.totalCapped && matches === null) {
      const above = Math.min(f.limit, newer.total - (page - 1) * f.limit);
      const rows = await readLedgerRows(db, pageAroundDay(branches.map(cond), after, above, f.limit));
      return { ...all, page, txs: rows };
    }
  }
  const offset = (page - 1) * f.limit;
  // Each branch gives at most the rows up to the page's end (`reach`), in order; the merge takes the page.
  const idsUpTo = (reach: SQL | number) =>
    sql.join(
      branches.map(
        (b) => sql`(SELECT t.id, t.created_at FROM bank_transactions t WHERE ${cond(b)}
                    ORDER BY t.created_at DESC, t.id DESC LIMIT ${reach})`,
      ),
      sql` UNION ALL `,
    );
  const ids = idsUpTo(offset + f.limit);
  // A page of the whole ledger, a currency or a category, the page size written as text (`pageSize`) so the
  // joins are planned for that many rows; `reach` and `from` as the caller gives them.
  const mergedPage = (reach: SQL | number, from: SQL | number) =>
    sql`SELECT id, created_at FROM (${idsUpTo(reach)}) b
        ORDER BY created_at DESC, id DESC LIMIT ${pageSize(f.limit)} OFFSET ${from}`;
  // The whole ledger past the first pages: the rollup's counts place the page. No watermark yet (the
  // rollup's first tick is under way): the page is read by its offset.
  const everything = noParty && where.length === 0;
  const known =
    everything && offset >= ROLLUP_STEP_MIN_OFFSET ? await watermarkBefore(db, sql`ledger_rollup_state`) : null;
  const [rows, count] = await Promise.all([
    known !== null && known !== '-infinity'
      ? readWithGenericPlans(db, async (tx) => {
          const first = await ledgerPageStart(tx, offset, known, new Date(minuteFloor()).toISOString());
          if (!first) return [];
          return readLedgerRows(
            tx,
            sql`SELECT t.id, t.created_at FROM bank_transactions t
                WHERE (t.created_at, t.id) <= (${first.at}::timestamptz, ${first.id})
                ORDER BY t.created_at DESC, t.id DESC LIMIT ${pageSize(f.limit)}`,
          );
        })
      : everything
        ? // The whole ledger's page: its first page without parameters, planned once per connection unasked
          // (readWholeListPage); a later one as below.
          readWholeListPage(db, offset, (on, from) =>
            readLedgerRows(on, mergedPage(offset === 0 ? pageSize(f.limit) : offset + f.limit, from)),
          )
        : rollupTotal
          ? // A page of a currency or a category: its generic plan (the page size as text, so
            // the joins are planned for that many rows), where PostgreSQL planned it again on every call,
            // its OFFSET being a parameter, at more than the cost of running it.
            readWithGenericPlans(db, (tx) => readLedgerRows(tx, mergedPage(offset + f.limit, offset)))
          : matches !== null
            ? // Its generic plans: each branch's form already chose its index, and planning it again on every
              // call cost more than running it.
              readWithGenericPlans(db, async (tx) => {
                const pageIds = amountBoundIds(branches.map(cond), await matches, offset + f.limit);
                return pageIds === null
                  ? []
                  : readLedgerRows(
                      tx,
                      sql`SELECT id, created_at FROM (${pageIds}) b
                          ORDER BY created_at DESC, id DESC LIMIT ${pageSize(f.limit)} OFFSET ${offset}`,
                    );
              })
            : readLedgerRows(
                db,
                sql`SELECT id, created_at FROM (${ids}) b ORDER BY created_at DESC, id DESC LIMIT ${f.limit} OFFSET ${offset}`,
              ),
    totalNow,
  ]);
  return { ...count, page, txs: rows };
}
