/**
 * The plain half of SPEC §5's field rules: the words of DESIGN §3's messages, field labels, bounds and the
 * creator-app URL check. No Zod here, so a page that only words a message or checks a URL loads no schema
 * library; `schemas/common.ts` builds its schemas on these and re-exports them.
 */

export const IS_REQUIRED = 'is required';
export const IS_NOT_ALLOWED = 'is not allowed';
export const IS_INVALID = 'contains an invalid value';

/**
 * A field's wire path in words, for the messages of the rules that speak to a member: `amount` -> 'Amount',
 * `input.amount` -> 'Input amount', `initialAmount` -> 'Initial amount' (list indexes are left out).
 */
export function fieldLabel(path: ReadonlyArray<PropertyKey> | string): string {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const words = parts
    .filter((p) => !/^\d+$/.test(p))
    .join(' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The words of SPEC §5's precision rule for the field `label` of a currency with `precision` decimals:
 * 'Amount can have at most 2 decimals', 'Amount must be a whole number' at precision 0.
 */
export function precisionMessage(label: string, precision: number): string {
  if (precision === 0) return `${label} must be a whole number`;
  return `${label} can have at most ${precision} decimal${precision === 1 ? '' : 's'}`;
}

/** The range of a PostgreSQL `integer`: every integer field is bounded to what the database can store. */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/**
 * List totals are counted only up to `COUNT_CAP` rows past the page's first row, so a page
 * never counts millions of rows. When more match, `total` is that bound and `totalCapped` is true (the
 * UI shows "10,000+").
 */
export const COUNT_CAP = 10_000;

/**
 * The ledger lists' bound (transactions, alltransactions): a list's matches are counted once up to this
 * many, whatever the page, so the total a member sees does not move as they page; more are "50,000+".
 */
export const LEDGER_COUNT_CAP = 50_000;

/** Characters a creator app's URL may not hold: whitespace, control and format (bidi) characters, `\`. */
const APP_URL_FORBIDDEN = /[\s\p{Cc}\p{Cf}\\]/u;
/** The scheme and authority as written: `http(s)://` then everything up to the path, query or fragment. */
const APP_URL_HEAD = /^(https?):\/\/([^/?#]*)/i;

/**
 * Whether `text` is a URL a member's browser may be sent to for a creator app (its redirect or cancel
 * URL; RFC 9700 §4.1, DESIGN §7): `https:`, or `http:` only on a loopback host (`localhost`,
 * 127.0.0.0/8, `[::1]`) for local development. Refused besides: credentials (`user:pass@`, even an
 * empty `@`), whitespace, control or bidi characters and backslashes (which WHATWG parsers drop or
 * rewrite), a scheme not followed by `//`, and an authority that does not read, letter case and a
 * default port aside, as the WHATWG URL parser (the browser's) reads it (`%65vil.example`, `127.1`,
 * non-ASCII hosts: write them as punycode). Pure: the server's schemas and the web's navigation guard
 * share it.
 */
export function isAppUrl(text: string): boolean {
  if (APP_URL_FORBIDDEN.test(text)) return false;
  const head = APP_URL_HEAD.exec(text);
  const authority = head?.[2]?.toLowerCase();
  if (authority === undefined || authority.includes('@')) return false;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.hostname === '') return false;
  const defaultPort = parsed.protocol === 'https:' ? '443' : '80';
  if (authority !== parsed.host && authority !== `${parsed.host}:${defaultPort}`) return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
}

/** A WHATWG-parsed hostname that names this machine: `localhost`, 127.0.0.0/8 or `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
