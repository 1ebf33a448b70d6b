/** SQL of forge processes (DESIGN §6): start, end once, list. */
import {
  type ForgeProcess,
  type ForgeProcessFilters,
  formatAtPrecision,
  fromNumeric,
  PROCESS_STATE,
} from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { forgeProcesses } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A process row as the service works with it (amounts per unit, numeric text). */
export type ProcessRow = typeof forgeProcesses.$inferSelect;

/**
 * Starts a process (state 1) whose finish date is the database's now plus `timeRequired` seconds, and
 * returns its id. Amounts are the recipe's, per unit, as numeric text.
 */
export async function insertProcess(
  db: DbOrTx,
  values: Pick<
    ProcessRow,
    | 'userId'
    | 'recipeId'
    | 'recipeName'
    | 'inputCurrencyId'
    | 'inputAmount'
    | 'outputCurrencyId'
    | 'outputAmount'
    | 'quantity'
  > & { timeRequired: number },
): Promise<string> {
  const id = newObjectId();
  const { timeRequired, ...columns } = values;
  await db.insert(forgeProcesses).values({
    id,
    ...columns,
    finishDate: sql`now() + make_interval(secs => ${timeRequired})`,
  });
  return id;
}

/**
 * Ends the member's running process `id`, once (DESIGN §6): a claim when its finish date has passed, a
 * cancel while it is younger than `cancelWindowMs` and not finished. One conditional UPDATE decides,
 * against the database's clock, so of two concurrent ends the second finds the process no longer
 * running and gets null, as do another member's process and a claim or cancel outside its time.
 */
export async function closeProcess(
  db: DbOrTx,
  id: string,
  userId: string,
  cancel: boolean,
  cancelWindowMs: number,
): Promise<ProcessRow | null> {
  const inTime = cancel
    ? sql`now() < ${forgeProcesses.createdAt} + make_interval(secs => ${cancelWindowMs / 1000}) AND now() < ${forgeProcesses.finishDate}`
    : sql`now() >= ${forgeProcesses.finishDate}`;
  const [row] = await db
    .update(forgeProcesses)
    .set({ state: cancel ? PROCESS_STATE.Cancelled : PROCESS_STATE.Completed, endedAt: sql`now()` })
    .where(
      sql`${forgeProcesses.id} = ${id} AND ${forgeProcesses.userId} = ${userId}
          AND ${forgeProcesses.state} = ${PROCESS_STATE.Started} AND ${inTime}`,
    )
    .returning();
  return row ?? null;
}

/**
 * The member's process `id` with what the database's clock says of it (to explain why `closeProcess`
 * refused), or null when the member has no such process.
 */
export async function findOwnProcessTiming(
  db: DbOrTx,
  id: string,
  userId: string,
  cancelWindowMs: number,
): Promise<{ state: number; finished: boolean; inCancelWindow: boolean } | null> {
  const res = await db.execute<{ state: number; finished: boolean; in_window: boolean }>(sql`
    SELECT state, now() >= finish_date AS finished,
           now() < created_at + make_interval(secs => ${cancelWindowMs / 1000}) AS in_window
    FROM forge_processes WHERE id = ${id} AND user_id = ${userId}`);
  const r = res.rows[0];
  return r ? { state: Number(r.state), finished: r.finished, inCancelWindow: r.in_window } : null;
}

/** What a process list selects: by owner, by id, or by the admin filters of SPEC §2. */
export interface ProcessQuery extends ForgeProcessFilters {
  userId?: string;
  id?: string;
  limit: number;
  page: number;
}

function processWhere(q: ProcessQuery): SQL {
  const where: SQL[] = [sql`true`];
  if (q.id) where.push(sql`p.id = ${q.id}`);
  if (q.userId) where.push(sql`p.user_id = ${q.userId}`);
  if (q.nickname) where.push(sql`p.user_id = (SELECT id FROM users WHERE nickname = ${q.nickname})`);
  if (q.state) where.push(sql`p.state = ${q.state}`);
  if (q.recipe) where.push(sql`p.recipe_id = ${q.recipe}`);
  where.push(...withinDates(sql`p.created_at`, q.startAfter, q.startBefore));
  where.push(...withinDates(sql`p.finish_date`, q.finishAfter, q.finishBefore));
  return sql.join(where, sql` AND `);
}

/**
 * Processes as the wire shows them (DESIGN §6), newest first, one page of `q`; and how many match
 * (not counted for a lookup by id).
 */
export async function findProcesses(
  db: DbOrTx,
  q: ProcessQuery,
): Promise<{ processes: ForgeProcess[]; total: number }> {
  const cond = processWhere(q);
  const [rows, count] = await Promise.all([
    db.execute<{
      id: string;
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
      nickname: string;
    }>(sql`
      SELECT p.id, p.created_at, p.finish_date, p.ended_at, p.recipe_id, p.recipe_name,
             p.input_currency_id, p.input_amount::text AS input_amount, ci.precision AS input_precision,
             p.output_currency_id, p.output_amount::text AS output_amount, co.precision AS output_precision,
             p.quantity, p.state, u.nickname
      FROM forge_processes p
      JOIN users u ON u.id = p.user_id
      JOIN currencies ci ON ci.currency_id = p.input_currency_id
      JOIN currencies co ON co.currency_id = p.output_currency_id
      WHERE ${cond}
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`),
    q.id ? null : db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM forge_processes p WHERE ${cond}`),
  ]);
  const iso = (v: string | Date) => new Date(v).toISOString();
  const processes = rows.rows.map(
    (r): ForgeProcess => ({
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
      user: { nickname: r.nickname },
    }),
  );
  return { processes, total: count ? Number(count.rows[0]?.n ?? 0) : processes.length };
}
