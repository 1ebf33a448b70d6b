/**
 * SQL of forge processes (DESIGN §6): start (with the ledger's posting, in one statement), end once,
 * list. A start or an end costs two statements besides BEGIN and COMMIT (DESIGN §9: round trips).
 * Reads other modules' tables: `currencies` (tickers and precisions shown) and `users` (the nickname a process shows and a filter names), joined in the list's one statement.
 */
import {
  type ForgeProcess,
  type ForgeProcessFilters,
  formatAtPrecision,
  fromNumeric,
  PROCESS_STATE,
} from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, queryPlanned } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { idOfNickname } from '../../db/lists.ts';
import { cappedTotal, countNow, pageSize, readWholeListPage, type TotalOf, wholeTableTotal } from '../../db/paging.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { PostAlong } from '../ledger/ledger.public.ts';

/** A process row with its currencies' precisions, as every query here returns it (amounts per unit). */
export type ProcessRow = {
  id: string;
  user_id: string;
  created_at: string | Date;
  finish_date: string | Date;
  ended_at: string | Date | null;
  recipe_id: string;
  recipe_name: string;
  input_currency_id: number;
  input_amount: string;
  input_precision: number;
  output_currency_id: number;
  output_amount: string;
  output_precision: number;
  quantity: number;
  state: number;
};

const iso = (v: string | Date) => new Date(v).toISOString();

/** A process row as the wire shows it (DESIGN §6), owned by `nickname`. */
export function toProcessDto(r: ProcessRow, nickname: string): ForgeProcess {
  return {
    _id: r.id,
    createdAt: iso(r.created_at),
    finishDate: iso(r.finish_date),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    recipe: { _id: r.recipe_id, name: r.recipe_name },
    input: {
      currencyId: Number(r.input_currency_id),
      amount: formatAtPrecision(fromNumeric(r.input_amount), Number(r.input_precision)),
    },
    output: {
      currencyId: Number(r.output_currency_id),
      amount: formatAtPrecision(fromNumeric(r.output_amount), Number(r.output_precision)),
    },
    quantity: Number(r.quantity),
    state: Number(r.state),
    user: { nickname },
  };
}

/** The columns of `ProcessRow` from `p` (forge_processes), `ci` and `co` (its two currencies). */
export const PROCESS_COLUMNS =
  sql.raw(`p.id, p.user_id, p.created_at, p.finish_date, p.ended_at, p.recipe_id, p.recipe_name,
  p.input_currency_id, p.input_amount::text AS input_amount, ci.precision AS input_precision,
  p.output_currency_id, p.output_amount::text AS output_amount, co.precision AS output_precision,
  p.quantity, p.state`);

/** What a process starts from: a live recipe and what its two currencies allow. */
export interface StartableRecipe extends Record<string, unknown> {
  id: string;
  name: string;
  time_required: number;
  active: boolean;
  input_currency_id: number;
  input_amount: string;
  input_precision: number;
  input_frozen: boolean;
  input_frozen_note: string;
  input_ticker: string;
  input_can_burn: boolean;
  output_currency_id: number;
  output_amount: string;
  output_precision: number;
  output_frozen: boolean;
  output_frozen_note: string;
  output_ticker: string;
  output_can_mint: boolean;
}

/**
 * The live recipes `ids` with their currencies' precision, frozen state and whether the input may be
 * burned and the output minted, in one statement, by id; a recipe that is not live is absent.
 */
export async function findStartableRecipes(db: DbOrTx, ids: readonly string[]): Promise<Map<string, StartableRecipe>> {
  const rows = await queryNamed<StartableRecipe>(
    db,
    'forge_startable_recipes',
    sql`SELECT r.id, r.name, r.time_required, r.active,
               r.input_currency_id, r.input_amount::text AS input_amount, ci.precision AS input_precision,
               ci.is_frozen AS input_frozen, ci.frozen_note AS input_frozen_note, ci.ticker AS input_ticker,
               ci.can_burn AS input_can_burn,
               r.output_currency_id, r.output_amount::text AS output_amount, co.precision AS output_precision,
               co.is_frozen AS output_frozen, co.frozen_note AS output_frozen_note, co.ticker AS output_ticker,
               co.can_mint AS output_can_mint
        FROM forge_recipes r
        JOIN currencies ci ON ci.currency_id = r.input_currency_id
        JOIN currencies co ON co.currency_id = r.output_currency_id
        WHERE r.id = ANY(${pgArray(ids)}::bpchar[]) AND r.deleted_at IS NULL`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** A process to start: its id, member, recipe and quantity. */
export interface NewProcess {
  id: string;
  userId: string;
  recipe: StartableRecipe;
  quantity: number;
}

/**
 * The caller's part of the ledger posting that starts the processes `rows` (see `postEntries`): their
 * rows (state 1, each finishing its recipe's `timeRequired` seconds after the database's now) are
 * inserted in the same statement as the inputs' debits, only when the posting is accepted, and their
 * dates come back as the statement's `started` (`[{id, created_at, finish_date}]`). `notified`: their
 * notifications (`insertNotificationsAlong`), written by the same statement.
 */
export function insertProcessesAlong(rows: readonly NewProcess[], notified: { ctes: SQL; columns: SQL }): PostAlong {
  const col = <T extends string | number>(f: (r: NewProcess) => T) => pgArray(rows.map(f));
  return {
    name: 'forge_start_notify',
    ctes: sql`proc AS (
      INSERT INTO forge_processes (id, user_id, recipe_id, recipe_name, input_currency_id, input_amount,
                                   output_currency_id, output_amount, quantity, finish_date)
      SELECT v.id, v.user_id, v.recipe_id, v.recipe_name, v.input_currency_id, v.input_amount,
             v.output_currency_id, v.output_amount, v.quantity, now() + make_interval(secs => v.secs)
      FROM unnest(${col((r) => r.id)}::text[], ${col((r) => r.userId)}::text[], ${col((r) => r.recipe.id)}::text[],
                  ${col((r) => r.recipe.name)}::text[], ${col((r) => r.recipe.input_currency_id)}::int[],
                  ${col((r) => r.recipe.input_amount)}::numeric[], ${col((r) => r.recipe.output_currency_id)}::int[],
                  ${col((r) => r.recipe.output_amount)}::numeric[], ${col((r) => r.quantity)}::int[],
                  ${col((r) => r.recipe.time_required)}::int[])
        AS v(id, user_id, recipe_id, recipe_name, input_currency_id, input_amount, output_currency_id,
             output_amount, quantity, secs)
      WHERE (SELECT ok FROM ok)
      RETURNING id, created_at, finish_date), ${notified.ctes}`,
    columns: sql`(SELECT json_agg(json_build_object('id', id, 'created_at', created_at, 'finish_date', finish_date))
                  FROM proc) AS started, ${notified.columns}`,
  };
}

/**
 * Ends running processes once each (DESIGN §6), a batch in one statement: each of `ends` (process id,
 * member, claim or cancel) is a claim when its finish date has passed and its output currency may be
 * minted and is not frozen, a cancel while it is younger than `cancelWindowMs` and not finished. One
 * conditional UPDATE decides, against the database's clock, so of two concurrent ends of one process the
 * second finds it no longer running, as do another member's process, a claim or cancel outside its time
 * and a claim of an output that cannot be minted now. The currency rows are read, not locked: a claim
 * racing a flag change is ordered before it. A process id must appear once in `ends`. Returns the ended
 * processes (as they are now) by id; an end that was refused is absent.
 */
export async function closeProcesses(
  db: DbOrTx,
  ends: ReadonlyArray<{ id: string; userId: string; cancel: boolean }>,
  cancelWindowMs: number,
): Promise<Map<string, ProcessRow>> {
  const rows = await queryNamed<ProcessRow>(
    db,
    'forge_end',
    sql`UPDATE forge_processes p
           SET state = CASE WHEN v.cancel THEN ${PROCESS_STATE.Cancelled}::int ELSE ${PROCESS_STATE.Completed}::int END,
               ended_at = now()
          FROM unnest(${pgArray(ends.map((e) => e.id))}::bpchar[], ${pgArray(ends.map((e) => e.userId))}::bpchar[],
                      ${pgArray(ends.map((e) => e.cancel))}::bool[]) AS v(id, user_id, cancel),
               currencies ci, currencies co
         WHERE p.id = v.id AND p.user_id = v.user_id AND p.state = ${PROCESS_STATE.Started}::int
           AND ci.currency_id = p.input_currency_id AND co.currency_id = p.output_currency_id
           AND CASE WHEN v.cancel
                    THEN now() < p.created_at + make_interval(secs => ${cancelWindowMs / 1000}::int) AND now() < p.finish_date
                    ELSE now() >= p.finish_date AND co.can_mint AND NOT co.is_frozen END
        RETURNING ${PROCESS_COLUMNS}`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** What `findOwnProcessTiming` tells of a process: its state, its time and its output currency now. */
export interface ProcessTiming {
  state: number;
  finished: boolean;
  inCancelWindow: boolean;
  output: { ticker: string; canMint: boolean; isFrozen: boolean; frozenNote: string };
}

/**
 * The member's process `id` with what the database's clock says of it and what its output currency
 * allows now (to explain why `closeProcesses` refused), or null when the member has no such process.
 */
export async function findOwnProcessTiming(
  db: DbOrTx,
  id: string,
  userId: string,
  cancelWindowMs: number,
): Promise<ProcessTiming | null> {
  const res = await db.execute<{
    state: number;
    finished: boolean;
    in_window: boolean;
    ticker: string;
    can_mint: boolean;
    is_frozen: boolean;
    frozen_note: string;
  }>(sql`
    SELECT p.state, now() >= p.finish_date AS finished,
           now() < p.created_at + make_interval(secs => ${cancelWindowMs / 1000}) AS in_window,
           co.ticker, co.can_mint, co.is_frozen, co.frozen_note
    FROM forge_processes p JOIN currencies co ON co.currency_id = p.output_currency_id
    WHERE p.id = ${id} AND p.user_id = ${userId}`);
  const r = res.rows[0];
  return r
    ? {
        state: Number(r.state),
        finished: r.finished,
        inCancelWindow: r.in_window,
        output: { ticker: r.ticker, canMint: r.can_mint, isFrozen: r.is_frozen, frozenNote: r.frozen_note },
      }
    : null;
}

/** What a process list selects: by owner, or by the admin filters of SPEC §2. */
export interface ProcessQuery extends ForgeProcessFilters {
  userId?: string;
  limit: number;
  page: number;
}

/**
 * The conditions of `q` on `p` (forge_processes), or null when its nickname names no account. Each
 * filter has an index in the list's date order (migration
 * 0019_list_indexes): the member (`forge_processes_user`), the state, the recipe; no filter or a start range
 * reads `forge_processes_created`. A finish range also bounds the start (a process finishes after it
 * starts), so `finishBefore` narrows the range of start dates read; `forge_processes_finish` serves a
 * narrow finish range.
 */
export async function processWhere(
  db: DbOrTx,
  q: Omit<ProcessQuery, 'limit' | 'page'>,
): Promise<{ cond: SQL; whole: boolean } | null> {
  const where: SQL[] = [sql`true`];
  if (q.userId) where.push(sql`p.user_id = ${q.userId}`);
  if (q.nickname) {
    const id = await idOfNickname(db, q.nickname);
    if (id === null) return null;
    where.push(sql`p.user_id = ${id}`);
  }
  if (q.state) where.push(sql`p.state = ${q.state}`);
  if (q.recipe) where.push(sql`p.recipe_id = ${q.recipe}`);
  where.push(...withinDates(sql`p.created_at`, q.startAfter, q.startBefore));
  where.push(...withinDates(sql`p.finish_date`, q.finishAfter, q.finishBefore));
  if (q.finishBefore) where.push(...withinDates(sql`p.created_at`, undefined, q.finishBefore));
  return { cond: sql.join(where, sql` AND `), whole: where.length === 1 };
}

/**
 * Processes as the wire shows them (DESIGN §6), newest first (ties by id), one page of `q`; and how many
 * match, counted up to a bound (`totalCapped`: more match than `total`). The page's ids are found
 * first, so a deep page reads only its own rows whole. `totalOf`, when given, answers the total instead of
 * counting at once: it gets the count to run and may answer a kept one (lib/kept-totals.ts).
 */
export async function findProcesses(
  db: DbOrTx,
  q: ProcessQuery,
  totalOf: TotalOf = countNow,
): Promise<{ processes: ForgeProcess[]; total: number; totalCapped: boolean }> {
  const where = await processWhere(db, q);
  if (where === null) return { processes: [], total: 0, totalCapped: false };
  const { cond, whole } = where;
  const offset = (q.page - 1) * q.limit;
  const read = (on: DbOrTx, size: SQL | number, from: SQL | number) =>
    queryPlanned<ProcessRow & { nickname: string }>(
      on,
      sql`
      SELECT ${PROCESS_COLUMNS}, u.nickname
      FROM (SELECT p.id, p.created_at FROM forge_processes p WHERE ${cond}
            ORDER BY p.created_at DESC, p.id DESC LIMIT ${size} OFFSET ${from}) page
      JOIN forge_processes p ON p.id = page.id
      JOIN users u ON u.id = p.user_id
      JOIN currencies ci ON ci.currency_id = p.input_currency_id
      JOIN currencies co ON co.currency_id = p.output_currency_id
      ORDER BY page.created_at DESC, page.id DESC`,
    );
  // The whole list (an admin's, no filter): one range of forge_processes_created whatever the page, read
  // with its generic plan; its total from the table's estimate past the bound (processes are never deleted).
  const [rows, count] = await Promise.all([
    whole ? readWholeListPage(db, offset, (on, from) => read(on, pageSize(q.limit), from)) : read(db, q.limit, offset),
    whole
      ? wholeTableTotal(db, 'forge_processes', offset)
      : totalOf(() => cappedTotal(db, sql`forge_processes p WHERE ${cond}`, offset)),
  ]);
  return { processes: rows.map((r) => toProcessDto(r, r.nickname)), ...count };
}
