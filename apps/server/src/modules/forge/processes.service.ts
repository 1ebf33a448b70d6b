/**
 * Forge processes (DESIGN §6; SPEC §4 Forge process states): a member starts a recipe, which takes its
 * input × quantity out of circulation at once (category 14, reference = the process); the process then
 * ends once, either claimed after its finish date (output × quantity issued, category 13, state 3) or
 * cancelled in its first 10 minutes before that date (the input issued back, category 13 in the input
 * currency, state 4). Every balance change goes through the ledger in the caller's transaction, and the
 * state leaves Started in one conditional UPDATE of that same transaction, so concurrent claims and
 * cancels of one process have exactly one outcome and pay once.
 *
 * What the currencies allow (the rule every path that issues or removes currency follows, DESIGN §4):
 * - a start needs an input that may be burned (`canBurn`) and an output that may be minted (`canMint`),
 *   neither frozen, as the recipe needed when it was made (recipes.service.ts);
 * - a claim needs, at the claim, an output that may still be minted and is not frozen. When an admin
 *   turned `canMint` off (or froze it) in between, the claim is refused (CONFLICT naming the currency)
 *   and nothing moves: the process stays Started and can be claimed once the currency allows it again,
 *   so a pause of minting pauses the forge without taking anyone's output; the input's `canBurn` no
 *   longer matters (its burn happened, allowed, at the start);
 * - a cancel pays the input back whatever the flags say now: it returns what the start removed and
 *   issues nothing new.
 */
import {
  type Amount,
  AppError,
  type EndProcessRequest,
  FORGE_CANCEL_WINDOW_MS,
  type ForgeProcess,
  type ForgeProcessesResponse,
  formatAmount,
  fromNumeric,
  type GetForgeProcessesAllRequest,
  type GetForgeProcessesRequest,
  MAX_AMOUNT,
  PROCESS_STATE,
  type ProcessResponse,
  type StartProcessRequest,
  TX_CATEGORY,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { type Outcome, onlyOutcome } from '../../lib/group-commit.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { requireBurnable, requireMintable, requireNotFrozen } from '../bank/currencies.service.ts';
import { type Entry, lockBalances, postEntries } from '../ledger/ledger.public.ts';
import {
  insertNotificationsAlong,
  type NewNotification,
  settleForgeReady,
  withdrawForgeReady,
} from '../notifications/notifications.public.ts';
import {
  closeProcesses,
  findOwnProcessTiming,
  findProcesses,
  findStartableRecipes,
  insertProcessesAlong,
  type NewProcess,
  type ProcessRow,
  type StartableRecipe,
  toProcessDto,
} from './processes.queries.ts';

/** `perUnit` × `quantity` (10^-9 units); VALIDATION on `quantity` when the total exceeds what an amount may be. */
function times(perUnit: string, quantity: number): Amount {
  const total = fromNumeric(perUnit) * BigInt(quantity);
  if (total > MAX_AMOUNT) throw new AppError('VALIDATION', '"quantity" contains an invalid value');
  return total as Amount;
}

/** One start: who starts which recipe how many times (DESIGN §6 startProcess). */
export interface StartJob {
  member: AuthUser;
  input: StartProcessRequest;
}

/**
 * `startProcess {recipeId, quantity}` (DESIGN §6) for a batch of members in `tx` (group commit, DESIGN
 * §9), as if they came one after the other in the given order: one statement reads the recipes, one
 * locks the starters' input balances (the ledger's order), each start is checked against what the
 * earlier ones left, and one statement takes every input × quantity (category 14,
 * reference = the process) and inserts the processes, each finishing `timeRequired` seconds from now. An
 * accepted start answers `{process, message: 'Process started'}`; a refused one leaves no trace and does
 * not stop the others, its outcome carrying NOT_FOUND `Recipe not found`, CONFLICT (the recipe is
 * inactive, a currency is frozen, the input cannot be burned or the output minted, `Insufficient funds`)
 * or VALIDATION (a total beyond the largest amount). Throws (rolling back the whole batch) only on a
 * database failure.
 */
export async function startProcesses(
  tx: Tx,
  jobs: readonly StartJob[],
  changes: LiveChanges,
): Promise<Outcome<ProcessResponse>[]> {
  const recipes = await findStartableRecipes(tx, [...new Set(jobs.map((j) => j.input.recipeId))]);
  const outcomes: Array<Outcome<ProcessResponse> | null> = jobs.map(() => null);
  const checked: Array<{ index: number; member: AuthUser; recipe: StartableRecipe; taken: Amount }> = [];
  for (const [index, { member, input }] of jobs.entries()) {
    try {
      const recipe = recipes.get(input.recipeId);
      if (!recipe) throw new AppError('NOT_FOUND', 'Recipe not found');
      if (!recipe.active) throw new AppError('CONFLICT', 'This recipe is not active');
      requireNotFrozen({
        isFrozen: recipe.input_frozen,
        frozenNote: recipe.input_frozen_note,
        ticker: recipe.input_ticker,
      });
      requireNotFrozen({
        isFrozen: recipe.output_frozen,
        frozenNote: recipe.output_frozen_note,
        ticker: recipe.output_ticker,
      });
      requireBurnable({ canBurn: recipe.input_can_burn, ticker: recipe.input_ticker });
      requireMintable({ canMint: recipe.output_can_mint, ticker: recipe.output_ticker });
      const taken = times(recipe.input_amount, input.quantity);
      times(recipe.output_amount, input.quantity);
      checked.push({ index, member, recipe, taken });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  }
  if (checked.length === 0) return outcomes.map((o) => o ?? { ok: false, error: new Error('no outcome') });
  const locked = await lockBalances(tx, 'forge_start_lock', {
    userIds: [...new Set(checked.map((c) => c.member.id))],
    currencyIds: [...new Set(checked.map((c) => c.recipe.input_currency_id))],
  });
  const entries: Entry[] = [];
  const started: Array<NewProcess & { index: number; member: AuthUser }> = [];
  for (const { index, member, recipe, taken } of checked) {
    if (!locked?.balances.covers(member.id, recipe.input_currency_id, taken)) {
      outcomes[index] = { ok: false, error: new AppError('CONFLICT', 'Insufficient funds') };
      continue;
    }
    const id = newObjectId();
    const quantity = jobs[index]?.input.quantity ?? 0;
    const entry: Entry = {
      category: TX_CATEGORY.ForgeBurn,
      currencyId: recipe.input_currency_id,
      amount: taken,
      executorId: member.id,
      senderId: member.id,
      recipientId: null,
      reference: id,
      note: `Forge: ${recipe.name} x${quantity}`,
    };
    locked.balances.apply(entry);
    entries.push(entry);
    started.push({ index, member, id, userId: member.id, recipe, quantity });
    changes.touchUser(member.id);
  }
  if (started.length > 0) {
    // Each process's forge_ready notification rides in the same statement, due at its finish date.
    const notified = insertNotificationsAlong(started.map(forgeReadyNotice));
    const { started: dates } = await postEntries<{
      started: Array<{ id: string; created_at: string; finish_date: string }> | null;
    }>(tx, entries, changes, insertProcessesAlong(started, notified));
    // Pushed at the commit only if already due then (a start that outlasted its recipe's time); else by the
    // push of what became due.
    changes.touchNotifications(notified.ids);
    const byId = new Map((dates ?? []).map((d) => [d.id, d]));
    for (const s of started) {
      const d = byId.get(s.id);
      if (!d) throw new Error(`process ${s.id} was not inserted`);
      const r = s.recipe;
      const process = toProcessDto(
        {
          id: s.id,
          user_id: s.userId,
          created_at: d.created_at,
          finish_date: d.finish_date,
          ended_at: null,
          recipe_id: r.id,
          recipe_name: r.name,
          input_currency_id: r.input_currency_id,
          input_amount: r.input_amount,
          input_precision: r.input_precision,
          output_currency_id: r.output_currency_id,
          output_amount: r.output_amount,
          output_precision: r.output_precision,
          quantity: s.quantity,
          state: PROCESS_STATE.Started,
        },
        s.member.nickname,
      );
      outcomes[s.index] = { ok: true, value: { process, message: 'Process started' } };
    }
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('start left without an outcome') });
}

/**
 * A started process's forge_ready notification (DESIGN §11.3): its id is the process's (so a cancel
 * withdraws it) and it is due at the process's finish date, the recipe's `time_required` seconds from the
 * transaction's now, as the process's `finish_date`.
 */
function forgeReadyNotice(p: NewProcess): NewNotification {
  const r = p.recipe;
  const output = formatAmount(times(r.output_amount, p.quantity), r.output_precision);
  return {
    id: p.id,
    userId: p.userId,
    kind: 'forge_ready',
    title: `${r.name} is ready`,
    body: `Your forge process ${r.name} x${p.quantity} is ready: claim ${output} ${r.output_ticker}.`,
    link: '/userbank?tab=forge',
    dueInSeconds: r.time_required,
  };
}

/**
 * `startProcess {recipeId, quantity}` (DESIGN §6) for `member`, in `tx`: `startProcesses` with a batch of
 * one. Answers `{process, message: 'Process started'}`; throws the start's error (see `startProcesses`).
 */
export function startProcess(
  tx: Tx,
  member: AuthUser,
  input: StartProcessRequest,
  changes: LiveChanges,
): Promise<ProcessResponse> {
  return onlyOutcome(startProcesses(tx, [{ member, input }], changes));
}

/** Why `closeProcesses` refused: NOT_FOUND for no such process of the member, else the CONFLICT that applies. */
async function refusal(db: DbOrTx, member: AuthUser, input: EndProcessRequest): Promise<AppError> {
  const timing = await findOwnProcessTiming(db, input.processId, member.id, FORGE_CANCEL_WINDOW_MS);
  if (!timing) return new AppError('NOT_FOUND', 'Process not found');
  if (timing.state !== 1) return new AppError('CONFLICT', 'This process has already ended');
  if (!input.cancel) {
    if (!timing.finished) return new AppError('CONFLICT', 'This process is not finished yet');
    const out = timing.output;
    if (out.isFrozen) return new AppError('CONFLICT', out.frozenNote || `${out.ticker} is frozen`);
    if (!out.canMint)
      return new AppError('CONFLICT', `${out.ticker} cannot be minted now: claim this process when it can`);
    // The flags changed back between the UPDATE and this read: the member may simply claim again.
    return new AppError('CONFLICT', 'This process could not be claimed: please try again');
  }
  if (timing.finished) return new AppError('CONFLICT', 'This process has finished: claim it instead');
  return new AppError('CONFLICT', 'The cancel window has closed (10 minutes after the start)');
}

/** One end: who claims or cancels which process (DESIGN §6 endProcess). */
export interface EndJob {
  member: AuthUser;
  input: EndProcessRequest;
}

/**
 * `endProcess {processId, cancel}` (DESIGN §6) for a batch of members in `tx` (group commit, DESIGN §9),
 * as if they came one after the other in the given order: one statement ends every process that may end
 * (`closeProcesses`, with each process's first job; a later job of the same process tries on its own only
 * when the earlier ones were refused), one
 * posts what each pays: a claim output × quantity, a cancel the input back, both category 13 and
 * reference = the process. An accepted end answers `{process, message: 'Process finished' | 'Process
 * cancelled'}`; a refused one moves nothing and does not stop the others, its outcome carrying NOT_FOUND
 * `Process not found` (none, or another member's) or CONFLICT (already ended, not finished yet, cancel
 * window closed; a claim while the output cannot be minted or is frozen, see the module comment). Throws
 * (rolling back the whole batch) only on a database failure.
 */
export async function endProcesses(
  tx: Tx,
  jobs: readonly EndJob[],
  changes: LiveChanges,
): Promise<Outcome<ProcessResponse>[]> {
  const first = new Map<string, number>();
  for (const [index, { input }] of jobs.entries()) if (!first.has(input.processId)) first.set(input.processId, index);
  const ended = await closeProcesses(
    tx,
    [...first.values()].map((index) => {
      const { member, input } = jobs[index] as EndJob;
      return { id: input.processId, userId: member.id, cancel: input.cancel };
    }),
    FORGE_CANCEL_WINDOW_MS,
  );
  const entries: Entry[] = [];
  const outcomes: Outcome<ProcessResponse>[] = [];
  // Ended by an earlier job of this batch (the first job of a process: by the UPDATE above).
  const endedIds = new Set<string>();
  for (const [index, { member, input }] of jobs.entries()) {
    const end = { id: input.processId, userId: member.id, cancel: input.cancel };
    let row: ProcessRow | undefined;
    if (first.get(input.processId) === index) row = ended.get(input.processId);
    // A later job of the same process: it tries on its own only when no earlier one ended the process
    // (a refused cancel before a claim), as it would one after the other.
    else if (!endedIds.has(input.processId)) {
      row = (await closeProcesses(tx, [end], FORGE_CANCEL_WINDOW_MS)).get(input.processId);
    }
    if (row) endedIds.add(input.processId);
    if (!row) {
      outcomes.push({ ok: false, error: await refusal(tx, member, input) });
      continue;
    }
    const [currencyId, perUnit] = input.cancel
      ? [row.input_currency_id, row.input_amount]
      : [row.output_currency_id, row.output_amount];
    entries.push({
      category: TX_CATEGORY.ForgeMint,
      currencyId,
      amount: times(perUnit, Number(row.quantity)),
      executorId: member.id,
      senderId: null,
      recipientId: member.id,
      reference: row.id,
      note: `Forge: ${row.recipe_name} x${row.quantity} ${input.cancel ? 'cancelled' : 'claimed'}`,
    });
    changes.touchUser(member.id);
    outcomes.push({
      ok: true,
      value: {
        process: toProcessDto(row, member.nickname),
        message: input.cancel ? 'Process cancelled' : 'Process finished',
      },
    });
  }
  // A process cancelled before it was ready announces nothing: its pending forge_ready goes with it. A
  // claimed one's is settled: read, unmailed, not pushed as news should it come due this very second.
  const endedJobs = jobs.filter((j) => endedIds.has(j.input.processId));
  const cancelled = endedJobs.filter((j) => j.input.cancel).map((j) => j.input.processId);
  const claimed = endedJobs.filter((j) => !j.input.cancel).map((j) => j.input.processId);
  if (cancelled.length > 0) await withdrawForgeReady(tx, cancelled);
  if (claimed.length > 0) await settleForgeReady(tx, claimed);
  if (entries.length > 0) await postEntries(tx, entries, changes);
  return outcomes;
}

/**
 * `endProcess {processId, cancel}` (DESIGN §6) for `member`, in `tx`: `endProcesses` with a batch of one.
 * Answers `{process, message}`; throws the end's error (see `endProcesses`).
 */
export function endProcess(
  tx: Tx,
  member: AuthUser,
  input: EndProcessRequest,
  changes: LiveChanges,
): Promise<ProcessResponse> {
  return onlyOutcome(endProcesses(tx, [{ member, input }], changes));
}

const listed = (result: {
  processes: ForgeProcess[];
  total: number;
  totalCapped: boolean;
}): ForgeProcessesResponse => ({
  ...result,
  message: result.total === 0 ? 'No logs found' : `Got ${result.total} process(es)`,
});

/**
 * `getForgeProcesses {paging}` (DESIGN §6): the member's own processes, newest first, and their count: the
 * member's kept one (`totals`, lib/kept-totals.ts), since a process is only ever added by a start, which
 * names its member (`touchUser`).
 */
export async function getForgeProcesses(
  db: Db,
  member: AuthUser,
  query: GetForgeProcessesRequest,
  totals: KeptTotals,
): Promise<ForgeProcessesResponse> {
  const key = JSON.stringify(['forge', (query.paging.page - 1) * query.paging.limit]);
  return listed(
    await findProcesses(db, { userId: member.id, ...query.paging }, (count) => totals.total(member.id, key, count)),
  );
}

/** Admin `getForgeProcessesAll {paging, filters}` (SPEC §2 Forge Process Logs): every member's, newest first. */
export async function getForgeProcessesAll(
  db: Db,
  query: GetForgeProcessesAllRequest,
): Promise<ForgeProcessesResponse> {
  return listed(await findProcesses(db, { ...query.filters, ...query.paging }));
}
