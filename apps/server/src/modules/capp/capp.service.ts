/**
 * Creator apps (DESIGN §7 "OAuth-grade consent"; RFC 9700's advice for the authorization
 * code flow): a creator's app asks (`createAuthRequest`, its URLs equal to ones registered on its own
 * collection, byte for byte), the member reads the request (`getAuthRequest`) and signs in on Starlight
 * with it (`consent`, called by `login` and `loginWallet`): the answer is the app's redirect URL with a
 * single-use code, never a session token. The app redeems the code once (`redeemCode`; a second
 * redemption revokes the grant) and reads the member's items in its own collection (`getUserItems`).
 * Requests and codes live 10 minutes; a code is kept only as its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AppError,
  type AuthRequestData,
  type CappLoginResponse,
  type CappUserItemsRequest,
  type CappUserItemsResponse,
  type CreateAuthRequestRequest,
  type CreateAuthRequestResponse,
  isAppUrl,
  type RedeemCodeResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { insertAccessLog } from '../accounts/accounts.public.ts';
import { findCollection, findItems, findListedItemIds } from '../items/items.public.ts';
import {
  type AuthRequestRow,
  findAuthRequest,
  hasLiveGrant,
  insertAuthRequest,
  insertCodeAndGrant,
  lockCode,
  markCodeUsed,
  revokeGrant,
  useAuthRequest,
} from './capp.queries.ts';

/** The most items `getUserItems` answers at once. */
const USER_ITEMS_LIMIT = 500;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * CONFLICT for a request whose stored redirect or cancel URL the rule of `isAppUrl` refuses (RFC 9700
 * §4.1): one written before the rule existed is neither shown nor granted, so no member's browser is
 * sent to a `javascript:` or plain-`http:` URL.
 */
const unsafeRequest = () => new AppError('CONFLICT', "This app's redirect or cancel URL is not allowed");

/** NOT_FOUND for an unknown request, CONFLICT for a used or expired one (the consent page shows it). */
function refuseRequest(row: AuthRequestRow | null): AppError {
  if (!row) return new AppError('NOT_FOUND', 'Authorization request not found');
  if (row.isUsed) return new AppError('CONFLICT', 'Authorization request already used');
  return new AppError('CONFLICT', 'Authorization request expired');
}

/**
 * `createAuthRequest {itemCollectionId, redirectUrl, cancelUrl, customMessage?}` (the collection's
 * creator): opens a request for 10 minutes and answers `{requestId, url, message}`, `url` being the page
 * the member opens (`publicUrl/loginCApp/{requestId}`). Throws NOT_FOUND `Collection not found` for a
 * collection that is not the caller's, VALIDATION when a URL is not, exactly, one registered on it. The
 * schema (`appUrl`) has already refused URLs a browser must not be sent to, so a collection registered
 * with one before that rule existed cannot open requests for it.
 */
export async function createAuthRequest(
  deps: { db: Db; publicUrl: string },
  creator: AuthUser,
  input: CreateAuthRequestRequest,
): Promise<CreateAuthRequestResponse> {
  const collection = await findCollection(deps.db, input.itemCollectionId);
  if (!collection || collection.creatorId !== creator.id) throw new AppError('NOT_FOUND', 'Collection not found');
  // Exact string equality (RFC 9700 §2.1): scheme, host, port, path and query all count.
  if (!collection.redirectUrls.includes(input.redirectUrl)) {
    throw new AppError('VALIDATION', '"redirectUrl" is not registered for this collection');
  }
  if (collection.cancelUrl === '' || collection.cancelUrl !== input.cancelUrl) {
    throw new AppError('VALIDATION', '"cancelUrl" is not registered for this collection');
  }
  const requestId = await insertAuthRequest(deps.db, {
    collectionId: collection.id,
    redirectUrl: input.redirectUrl,
    cancelUrl: input.cancelUrl,
    customMessage: input.customMessage ?? '',
  });
  return {
    requestId,
    url: `${deps.publicUrl.replace(/\/+$/, '')}/loginCApp/${requestId}`,
    message: 'Authorization request created',
  };
}

/**
 * `getAuthRequest {requestId}` (public): what the consent page shows, `{data, message}`. Throws
 * NOT_FOUND for an unknown request, CONFLICT for a used or expired one, or one with an unsafe URL.
 */
export async function getAuthRequest(db: Db, requestId: string): Promise<{ data: AuthRequestData; message: string }> {
  const row = await findAuthRequest(db, requestId);
  if (!row || row.isUsed || row.isExpired) throw refuseRequest(row);
  if (!isAppUrl(row.redirectUrl) || !isAppUrl(row.cancelUrl)) throw unsafeRequest();
  const cappUrl = new URL(row.redirectUrl).origin;
  return {
    data: {
      itemCollectionId: row.collectionId,
      collectionName: row.collectionName,
      redirectUrl: row.redirectUrl,
      cancelUrl: row.cancelUrl,
      customMessage: row.customMessage,
      requestMessage:
        `The app at ${cappUrl} asks to see the items you hold in ${row.collectionName} (by ${row.creatorNickname}). ` +
        'Signing in lets it read them; it never sees your password or your session.',
      cappUrl,
    },
    message: 'Authorization request',
  };
}

/**
 * Grants the consent request `requestId` for the member `userId`, who has just proved who they are
 * (`login`: access log type 3, `loginWallet`: type 4), in one transaction: the request is used once, a
 * 256-bit code is stored by its SHA-256, the grant is (re)opened and the sign-in logged. Answers
 * `{url, message}`: the registered redirect URL with `code=<code>`. Throws NOT_FOUND or CONFLICT (as
 * `getAuthRequest`) when the request cannot be used, CONFLICT when a stored URL (or the URL answered) is
 * not one `isAppUrl` accepts; nothing is written then.
 */
export async function consent(
  db: Db,
  userId: string,
  requestId: string,
  address: string,
  loginType: 3 | 4,
): Promise<CappLoginResponse> {
  const code = randomBytes(32).toString('base64url');
  const answered = await inTransaction(db, async (tx) => {
    const request = await useAuthRequest(tx, requestId, userId);
    if (!request) return null;
    // The stored URLs and the one answered (what the member's browser opens) must all pass; thrown inside
    // the transaction, so the request stays unused and no code, grant or log is written.
    const url = URL.canParse(request.redirectUrl) ? new URL(request.redirectUrl) : null;
    url?.searchParams.append('code', code);
    if (!url || !isAppUrl(request.redirectUrl) || !isAppUrl(request.cancelUrl) || !isAppUrl(url.href)) {
      throw unsafeRequest();
    }
    await insertCodeAndGrant(tx, { codeHash: sha256(code), requestId, userId, collectionId: request.collectionId });
    await insertAccessLog(tx, userId, address, loginType);
    return url.href;
  });
  if (answered === null) throw refuseRequest(await findAuthRequest(db, requestId));
  return { url: answered, message: 'Authorized: returning to the app' };
}

/**
 * `redeemCode {code}` (the collection's creator): `{userId, nickname, message}` of the member who
 * consented, once. Throws NOT_FOUND `Code not found` for an unknown code or another creator's, CONFLICT
 * `Code expired`, and CONFLICT `Code already used` for a second redemption, which also revokes the
 * member's grant (RFC 6749 §4.1.2).
 */
export async function redeemCode(db: Db, creator: AuthUser, code: string): Promise<RedeemCodeResponse> {
  const hash = sha256(code);
  const outcome = await inTransaction(db, async (tx) => {
    const row = await lockCode(tx, hash);
    if (!row || row.creatorId !== creator.id) return { refused: new AppError('NOT_FOUND', 'Code not found') };
    if (row.isUsed) {
      // Committed before the refusal is thrown: a replayed code ends the grant it came with.
      await revokeGrant(tx, row.userId, row.collectionId);
      return { refused: new AppError('CONFLICT', 'Code already used') };
    }
    if (row.isExpired) return { refused: new AppError('CONFLICT', 'Code expired') };
    await markCodeUsed(tx, hash);
    return { row };
  });
  if ('refused' in outcome) throw outcome.refused;
  return { userId: outcome.row.userId, nickname: outcome.row.nickname, message: 'Code redeemed' };
}

/**
 * `getUserItems {userId, itemCollectionId}` (the collection's creator): the member's items in that
 * collection, newest first (up to 500), `hiddendata` included as for any creator, and whether each is
 * `listed` on the market (DESIGN §11.5: locked to its listing until sold or cancelled). Throws NOT_FOUND
 * `Collection not found` for a collection that is not the caller's, FORBIDDEN when the member has not
 * granted (or has had revoked) the app's access.
 */
export async function getUserItems(
  db: Db,
  creator: AuthUser,
  input: CappUserItemsRequest,
): Promise<CappUserItemsResponse> {
  const collection = await findCollection(db, input.itemCollectionId);
  if (!collection || collection.creatorId !== creator.id) throw new AppError('NOT_FOUND', 'Collection not found');
  if (!(await hasLiveGrant(db, input.userId, collection.id))) {
    throw new AppError('FORBIDDEN', 'This member has not authorised your app');
  }
  const { data, total } = await findItems(db, { ownerId: input.userId, collectionId: collection.id }, creator.id, {
    limit: USER_ITEMS_LIMIT,
    page: 1,
  });
  const listed = await findListedItemIds(
    db,
    data.map((i) => i._id),
  );
  return {
    data: data.map((i) => ({ ...i, listed: listed.has(i._id) })),
    message: total === 0 ? 'No Data' : `Got ${total}`,
  };
}
