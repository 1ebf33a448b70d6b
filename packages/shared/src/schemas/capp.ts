/**
 * Creator apps (DESIGN §7 "OAuth-grade consent"; SPEC §2 /loginCApp, §3 Creator-app auth request, §5
 * custom message up to 128): a creator's app asks a member to let it read the member's items in one of
 * the creator's collections; the member signs in on Starlight's page and the app gets a single-use code
 * on its registered redirect URL, never a token.
 */
import { z } from 'zod';
import { appUrl, objectId } from './common.ts';
import { item } from './items.ts';

/** SPEC §5 / §9: a creator app's custom message, up to 128 characters. */
export const CAPP_MESSAGE_MAX = 128;

/**
 * Characters a custom message may not hold: `<` and `>` (markup), control characters (line breaks
 * included) and the bidi controls that could make the consent page read otherwise than it is written.
 */
const NOT_PLAIN_TEXT = /[<>\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The refusal of a custom message that is not plain text. */
export const CAPP_MESSAGE_NOT_PLAIN = '"customMessage" must be plain text, without < > or control characters';

/**
 * A creator app's custom message: plain text, up to 128 characters, refused (not stripped) when it holds
 * markup or control characters. Refused because stripping would change the creator's words behind their
 * back and is easy to get wrong (`<scr<script>ipt>`), while a refusal tells the creator at once; the page
 * shows it as text in any case, and so may any other client that shows it, with nothing to escape.
 */
export const cappMessage = z
  .string()
  .max(CAPP_MESSAGE_MAX)
  .refine((v) => !NOT_PLAIN_TEXT.test(v), { error: CAPP_MESSAGE_NOT_PLAIN });
/** DESIGN §7: a consent request and its code live 10 minutes. */
export const CAPP_TTL_SECONDS = 600;

/**
 * `POST /api/capp/createAuthRequest {itemCollectionId, redirectUrl, cancelUrl, customMessage?}` (the
 * collection's creator, by API key or session) -> `{requestId, url, message}`. Both URLs must equal,
 * exactly, URLs registered on the collection (`redirectUrls`, `cancelUrl`).
 */
export const createAuthRequestRequest = z.strictObject({
  itemCollectionId: objectId,
  redirectUrl: appUrl,
  cancelUrl: appUrl,
  customMessage: cappMessage.optional(),
});
export type CreateAuthRequestRequest = z.infer<typeof createAuthRequestRequest>;
/** `url` is the page the member opens: `PUBLIC_URL/loginCApp/{requestId}`. */
export const createAuthRequestResponse = z.object({ requestId: z.string(), url: z.string(), message: z.string() });
export type CreateAuthRequestResponse = z.infer<typeof createAuthRequestResponse>;

/** `POST /api/capp/getAuthRequest {requestId}` (public) -> `{data, message}`. */
export const getAuthRequestRequest = z.strictObject({ requestId: objectId });
export type GetAuthRequestRequest = z.infer<typeof getAuthRequestRequest>;
/** SPEC §3 creator-app auth request as the consent page shows it; `cappUrl` is the app's origin. */
export const authRequestData = z.object({
  itemCollectionId: z.string(),
  collectionName: z.string(),
  redirectUrl: z.string(),
  cancelUrl: z.string(),
  customMessage: z.string(),
  requestMessage: z.string(),
  cappUrl: z.string(),
});
export type AuthRequestData = z.infer<typeof authRequestData>;
export const getAuthRequestResponse = z.object({ data: authRequestData, message: z.string() });
export type GetAuthRequestResponse = z.infer<typeof getAuthRequestResponse>;

/**
 * What `login` and `loginWallet` answer with `cAppAuthRequest` (DESIGN §7): the app's redirect URL with
 * `code=<single-use code>` added, and no session token.
 */
export const cappLoginResponse = z.object({ url: z.string(), message: z.string() });
export type CappLoginResponse = z.infer<typeof cappLoginResponse>;

/** `POST /api/capp/redeemCode {code}` (the collection's creator) -> `{userId, nickname, message}`. */
export const redeemCodeRequest = z.strictObject({ code: z.string().min(1).max(255) });
export type RedeemCodeRequest = z.infer<typeof redeemCodeRequest>;
export const redeemCodeResponse = z.object({ userId: z.string(), nickname: z.string(), message: z.string() });
export type RedeemCodeResponse = z.infer<typeof redeemCodeResponse>;

/**
 * `POST /api/capp/getUserItems {userId, itemCollectionId}` (the collection's creator; the member must
 * have granted it) -> `{data, message}`: the member's items in that collection, each with `listed`
 * (true while it has an open market listing: DESIGN §11.5 locks it to the listing, so the app must not
 * use it until it is sold or the listing cancelled).
 */
export const cappUserItemsRequest = z.strictObject({ userId: objectId, itemCollectionId: objectId });
export type CappUserItemsRequest = z.infer<typeof cappUserItemsRequest>;
export const cappItem = item.extend({ listed: z.boolean() });
export type CappItem = z.infer<typeof cappItem>;
export const cappUserItemsResponse = z.object({ data: z.array(cappItem), message: z.string() });
export type CappUserItemsResponse = z.infer<typeof cappUserItemsResponse>;
