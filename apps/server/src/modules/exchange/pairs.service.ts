/** The exchange's pairs (SPEC §3, §7 Exchange; DESIGN §5): who may see them, creation, changes, deletion. */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type CreatePairInput,
  type DeletePairResponse,
  type ModifyPairInput,
  type PairResponse,
  type PairsResponse,
} from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { findCurrency } from '../bank/bank.public.ts';
import { postEntries } from '../ledger/ledger.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { pairName, toPairDto } from './exchange.dto.ts';
import { refundOpenOrders } from './orders.money.ts';
import { findOpenOrdersOfPair, updateOrders } from './orders.queries.ts';
import {
  findPair,
  findPairs,
  insertPair,
  lockPair,
  markPairDeleted,
  type PairFields,
  type PairRow,
  pairExists,
  updatePair,
} from './pairs.queries.ts';

/** The caller of a public route: null for a visitor. */
export type Viewer = AuthUser | null;

/** True when the caller is an admin (who also sees hidden pairs). */
export const isAdmin = (viewer: Viewer): boolean => viewer?.role === 'admin';

/** A live pair the viewer may see (hidden ones only for admins), or NOT_FOUND `Pair not found`. */
export async function requireViewablePair(db: DbOrTx, pairId: string, viewer: Viewer): Promise<PairRow> {
  const pair = await findPair(db, pairId);
  if (!pair || (!pair.visible && !isAdmin(viewer))) throw new AppError('NOT_FOUND', 'Pair not found');
  return pair;
}

/** Resolves a fee collector nickname to a user id; '' means none (fees burned). VALIDATION when unknown. */
async function collectorId(db: DbOrTx, nickname: string | undefined): Promise<string | null | undefined> {
  if (nickname === undefined) return undefined;
  if (nickname === '') return null;
  const user = await findUserByNickname(db, nickname);
  if (!user) throw new AppError('VALIDATION', '"feeCollector" contains an invalid value');
  return user.id;
}

/** The pair flags a request may set (fees fractions 0..1 as Amounts). */
export type PairInput = Omit<ModifyPairInput, 'pairId' | 'name'>;

/**
 * The fee columns a request sets (DESIGN §11.4): `fee` sets both the maker and the taker fee, a `makerFee`
 * or `takerFee` beside it wins; the one `fee` column follows as the larger of the two. `before`: the
 * pair's fees as they are (0 for a new pair). Empty when the request names no fee.
 */
function feeFields(input: PairInput, before: { makerFee: Amount; takerFee: Amount }): PairFields {
  if (input.fee === undefined && input.makerFee === undefined && input.takerFee === undefined) return {};
  const makerFee = input.makerFee ?? input.fee ?? before.makerFee;
  const takerFee = input.takerFee ?? input.fee ?? before.takerFee;
  // Math.max takes no bigints.
  let fee = makerFee;
  if (takerFee > fee) fee = takerFee;
  return { makerFee, takerFee, fee };
}

async function pairFields(
  db: DbOrTx,
  input: PairInput,
  before: { makerFee: Amount; takerFee: Amount },
): Promise<PairFields> {
  const fields: PairFields = {};
  if (input.canBuy !== undefined) fields.canBuy = input.canBuy;
  if (input.canSell !== undefined) fields.canSell = input.canSell;
  if (input.visible !== undefined) fields.visible = input.visible;
  if (input.frozen !== undefined) fields.frozen = input.frozen;
  if (input.frozenNote !== undefined) fields.frozenNote = input.frozenNote;
  Object.assign(fields, feeFields(input, before));
  const collector = await collectorId(db, input.feeCollector);
  if (collector !== undefined) fields.feeCollectorId = collector;
  return fields;
}

/**
 * Admin: creates a pair trading `buyCurrency` against `sellCurrency` (SPEC §7 createPair, DESIGN §5).
 * The name is composed from the currencies; `visible` defaults to true, fees to 0 (`fee` sets both
 * the maker and the taker fee, DESIGN §11.4), no collector burns fees. Writes an admin log row (category 20). Answers `{pair, message}`.
 * Throws NOT_FOUND (currency), VALIDATION (same currency twice, unknown collector), CONFLICT (exists).
 */
export async function createPair(
  db: Db,
  admin: AuthUser,
  input: CreatePairInput,
  address: string,
): Promise<PairResponse> {
  if (input.buyCurrency === input.sellCurrency) {
    throw new AppError('VALIDATION', '"sellCurrency" contains an invalid value');
  }
  try {
    return await inTransaction(db, async (tx) => {
      const [buy, sell] = await Promise.all([
        findCurrency(tx, input.buyCurrency),
        findCurrency(tx, input.sellCurrency),
      ]);
      if (!buy || !sell) throw new AppError('NOT_FOUND', 'Currency not found');
      if (await pairExists(tx, buy.currencyId, sell.currencyId)) {
        throw new AppError('CONFLICT', 'This pair already exists');
      }
      const fields = await pairFields(tx, input, { makerFee: 0n as Amount, takerFee: 0n as Amount });
      const id = await insertPair(tx, { ...fields, buyCurrency: buy.currencyId, sellCurrency: sell.currencyId });
      const pair = await findPair(tx, id);
      if (!pair) throw new Error('pair vanished');
      const name = pairName(buy.name, sell.name);
      await insertAdminLog(tx, {
        adminId: admin.id,
        address,
        category: ADMIN_CATEGORY.CexTradePairCreated,
        action: `Created trade pair ${name} (${id})`,
      });
      return { pair: toPairDto(pair), message: `Pair ${name} created` };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'This pair already exists');
    throw err;
  }
}

/**
 * Admin: changes a pair's flags, fees or collector (SPEC §7 modifyPair, DESIGN §11.4: `fee` sets both the
 * maker and the taker fee; `makerFee`/`takerFee` one of them); currencies never change, the
 * name follows them. Writes an admin log row (category 21). Answers `{pair, message: 'Pair modified'}`.
 * Throws NOT_FOUND (pair), VALIDATION (unknown collector).
 */
export async function modifyPair(
  db: Db,
  admin: AuthUser,
  input: ModifyPairInput,
  address: string,
  changes: LiveChanges,
): Promise<PairResponse> {
  return inTransaction(db, async (tx) => {
    await lockPair(tx, input.pairId);
    const before = await findPair(tx, input.pairId);
    if (!before) throw new AppError('NOT_FOUND', 'Pair not found');
    const fields = await pairFields(tx, input, before);
    await updatePair(tx, before.id, fields);
    const pair = await findPair(tx, before.id);
    if (!pair) throw new Error('pair vanished');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CexTradePairModified,
      action: `Modified trade pair ${pairName(pair.buyName, pair.sellName)}: ${Object.keys(fields).join(', ') || 'no changes'}`,
    });
    // Its visibility and flags change what every reader of the pair is answered (market.cache.ts).
    changes.touchPair(pair.id);
    return { pair: toPairDto(pair), message: 'Pair modified' };
  });
}

/**
 * Admin: deletes a pair (SPEC §7 deletePair). Its open orders are cancelled first and their escrow
 * refunded (category 21); the pair disappears from every list but its orders stay in members' history.
 * Writes an admin log row (category 22). Answers `{cancelledOrders, message}`. Throws NOT_FOUND.
 */
export async function deletePair(
  db: Db,
  admin: AuthUser,
  pairId: string,
  address: string,
  changes: LiveChanges,
): Promise<DeletePairResponse> {
  return inTransaction(db, async (tx) => {
    await lockPair(tx, pairId);
    const pair = await findPair(tx, pairId);
    if (!pair) throw new AppError('NOT_FOUND', 'Pair not found');
    const open = await findOpenOrdersOfPair(tx, pair.id);
    const { entries, updates } = refundOpenOrders(pair, open, admin.id, 'Order cancelled: pair deleted');
    await postEntries(tx, entries, changes);
    await updateOrders(tx, updates);
    await markPairDeleted(tx, pair.id);
    const name = pairName(pair.buyName, pair.sellName);
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CexTradePairDeleted,
      action: `Deleted trade pair ${name} (${pair.id}); cancelled ${open.length} open orders`,
    });
    changes.touchPair(pair.id);
    for (const o of open) changes.touchUser(o.userId);
    return { cancelledOrders: open.length, message: `Pair deleted (${open.length} open orders cancelled)` };
  });
}

/** SPEC §7 getPairs (public): visible pairs, and hidden ones for an admin. Message `Got N pair(s)`. */
export async function listPairs(db: Db, viewer: Viewer): Promise<PairsResponse> {
  const pairs = (await findPairs(db, isAdmin(viewer))).map(toPairDto);
  return { pairs, message: `Got ${pairs.length} pair(s)` };
}
