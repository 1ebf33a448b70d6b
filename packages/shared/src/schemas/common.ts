/**
 * Field rules of SPEC §5 as Zod schemas, and the message form of DESIGN §3:
 * `"{label}" is required`, `"{label}" is not allowed`, `"{label}" contains an invalid value`,
 * or the rule's own text (`Password not strong enough`).
 */
import { z } from 'zod';
import { fieldLabel, INT32_MAX, INT32_MIN, IS_INVALID, IS_NOT_ALLOWED, IS_REQUIRED, isAppUrl } from '../field-rules.ts';
import { type Amount, fitsPrecision, MAX_AMOUNT, MIN_AMOUNT, parseAmount, UNIT } from '../money.ts';

export * from '../field-rules.ts';

// Every default message becomes one of the three templates; issueMessage() adds the label.
z.config({
  customError: (iss) => {
    if (iss.code === 'unrecognized_keys') return IS_NOT_ALLOWED;
    // A missing field, whatever its rule (a type, an enum, a preprocessed value), is "required".
    if (iss.input === undefined) return IS_REQUIRED;
    return IS_INVALID;
  },
});

/** A Zod issue as it comes out of a failed parse. */
export type Issue = z.core.$ZodIssue;

/** The issue param that marks an amount's refusal, said in words ('Amount must be at least 0.01'). */
const AMOUNT_RULE = 'amount';
/** An amount that is neither a number nor a string (null, true, a list), said in words after its label. */
const NOT_A_NUMBER = 'must be a number, like 12.50';

/** The user-facing message of one issue, in SPEC §5's form (an amount's in words: its rule's own text). */
export function issueMessage(issue: Issue): string {
  const label = issue.path.map(String).join('.');
  if ((issue.code === 'custom' && issue.params?.rule === AMOUNT_RULE) || issue.message === NOT_A_NUMBER) {
    return `${fieldLabel(issue.path) || 'Amount'} ${issue.message}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
    return `"${key}" ${IS_NOT_ALLOWED}`;
  }
  if (issue.message === IS_REQUIRED || issue.message === IS_INVALID || issue.message === IS_NOT_ALLOWED) {
    return `"${label || 'value'}" ${issue.message}`;
  }
  return issue.message;
}

/** Every issue of a failed parse as `{field, message}`; the first one is the response `message`. */
export function issueList(issues: readonly Issue[]): Array<{ field: string; message: string }> {
  return issues.map((i) => {
    const path = i.code === 'unrecognized_keys' ? [...i.path, i.keys[0] ?? ''] : i.path;
    return { field: path.map(String).join('.'), message: issueMessage(i) };
  });
}

const alnum = /^[a-zA-Z0-9]+$/;

/** SPEC §5 note: text up to 255, may be empty. */
export const note = z.string().max(255);
/** SPEC §5 name: 3 to 127 characters. */
export const name = z.string().min(3).max(127);
/** SPEC §5 description: 12 to 511 characters. */
export const description = z.string().min(12).max(511);
/** SPEC §5 object id: alphanumeric, exactly 24 (DESIGN §3: lowercase hex). */
export const objectId = z.string().length(24).regex(alnum);
/** SPEC §5 nickname: alphanumeric, 3 to 32. */
export const nickname = z.string().min(3).max(32).regex(alnum);
/** SPEC §5 email: up to 255, valid format, lowercased. */
export const email = z
  .string()
  .max(255)
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.email());
/** SPEC §5 password: 8 to 32, no whitespace, lowercase, uppercase, digit and symbol. */
export const strongPassword = z
  .string({ error: (iss) => (iss.input === undefined ? IS_REQUIRED : IS_INVALID) })
  .refine(
    (v) =>
      v.length >= 8 &&
      v.length <= 32 &&
      !/\s/.test(v) &&
      /[a-z]/.test(v) &&
      /[A-Z]/.test(v) &&
      /\d/.test(v) &&
      /[^a-zA-Z0-9\s]/.test(v),
    { error: 'Password not strong enough' },
  );
/** SPEC §5 role: text 1 to 10. */
export const role = z.string().min(1).max(10);
/** SPEC §5 wallet address: 10 to 50, lowercased. */
export const walletAddress = z
  .string()
  .min(10)
  .max(50)
  .transform((v) => v.toLowerCase());
/**
 * SPEC §5 currencyId: integer; a form's select may send it as digits ("2"). Not z.coerce: that turns a
 * missing id into NaN ("contains an invalid value" instead of "is required") and null, "" or true into 0/1.
 */
export const currencyId = z.preprocess(
  (v) => (typeof v === 'string' && /^-?\d{1,10}$/.test(v.trim()) ? Number(v) : v),
  z.number().int().min(INT32_MIN).max(INT32_MAX),
);
/** SPEC §5 precision: integer 0 to 9. */
export const precision = z.number().int().min(0).max(9);
/** SPEC §5 ticker: alphanumeric 2 to 7. */
export const ticker = z.string().min(2).max(7).regex(alnum);
/** SPEC §5 currency name: 3 to 31. */
export const currencyName = z.string().min(3).max(31);
/** SPEC §5 reference: up to 255. */
export const reference = z.string().max(255);
/** SPEC §5 transaction category and state filter: integer at least 1. */
export const category = z.number().int().min(1).max(INT32_MAX);
/** SPEC §5 URL: a valid URI. */
export const url = z.url();

/**
 * SPEC §5 URL, for a creator app's redirect and cancel URLs: a valid URI of at most 2,048 characters
 * that `isAppUrl` accepts, kept as written; otherwise `"{label}" contains an invalid value` (DESIGN §3:
 * 400). Not built on `url`: `z.url()` trims the text and drops tabs and newlines before later checks see
 * it, and the registered URL must be exactly what was checked.
 */
export const appUrl = z
  .string()
  .max(2048)
  .refine(isAppUrl, { error: IS_INVALID })
  .meta({ format: 'uri', description: 'https:, or http: on localhost, 127.0.0.0/8 or [::1]; no credentials' });
/**
 * ISO 8601 date-time (or date) on the wire, of a year 1 to 9999 that is a real calendar date, so
 * that PostgreSQL can store it (year 0000 has no timestamp there).
 */
export const isoDate = z.iso
  .datetime({ offset: true })
  .or(z.iso.date())
  .refine((v) => {
    const year = Number(v.slice(0, 4));
    return year >= 1 && year <= 9999 && !Number.isNaN(Date.parse(v));
  });

/** A decimal string on the wire (DESIGN §3: amounts in responses are always strings). */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/);

/**
 * A JSON number or decimal string parsed to an Amount (10^-9 units), refused as `contains an invalid
 * value` unless `accepts` the parsed Amount; with `words`, refused with the rule `words` says of the
 * parsed Amount (null when it is not a number), after the field's label.
 */
function decimalInput(accepts: (a: Amount) => boolean, words?: (a: Amount | null, input: unknown) => string) {
  const typeError = words
    ? (iss: { input: unknown }) => (iss.input === undefined ? IS_REQUIRED : NOT_A_NUMBER)
    : undefined;
  return z.union([z.number(), z.string()], typeError ? { error: typeError } : undefined).transform((v, ctx): Amount => {
    const a = parseAmount(v);
    if (a === null || !accepts(a)) {
      if (words) ctx.issues.push({ code: 'custom', message: words(a, v), input: v, params: { rule: AMOUNT_RULE } });
      else ctx.issues.push({ code: 'custom', message: IS_INVALID, input: v });
      return z.NEVER;
    }
    return a;
  });
}

/**
 * SPEC §5 amount: a JSON number or decimal string, at least 0.01, parsed to an Amount (10^-9 units);
 * refused in words (`Amount must be a number, like 12.50`, `Amount must be at least 0.01`, DESIGN §3: the
 * rule's own text). The currency's precision is checked by the service, which knows the currency.
 */
export const amountInput = decimalInput(
  (a) => a >= MIN_AMOUNT && a <= MAX_AMOUNT,
  (a, input) =>
    a === null && !/^\s*-\s*\d/.test(String(input))
      ? NOT_A_NUMBER
      : a === null || a < MIN_AMOUNT
        ? 'must be at least 0.01'
        : 'must be at most 100,000,000,000,000,000,000',
);

/** A filter amount: any non-negative decimal (amountAbove / amountBelow). */
export const amountFilter = decimalInput((a) => a <= MAX_AMOUNT);

/** A price in US dollars (DESIGN §7 package cost): at least 0.01, at most 2 decimals, as an Amount. */
export const usdInput = decimalInput((a) => a >= MIN_AMOUNT && a <= MAX_AMOUNT && fitsPrecision(a, 2));

/** SPEC §5 percent/tax/fee: number 0 to 1, parsed to an Amount-scaled fraction (0.05 -> 50_000_000n). */
export const fraction = decimalInput((a) => a <= UNIT);

/**
 * A pair's fee (SPEC §5 fee, DESIGN §11.4 `makerFee`/`takerFee`): number 0 to 1 as an Amount-scaled
 * fraction, refused in words after its label (`Maker fee must be a number from 0 to 1`).
 */
export const feeFraction = decimalInput(
  (a) => a <= UNIT,
  () => 'must be a number from 0 to 1',
);

/** SPEC §5 paging: limit integer 5 to 50, page integer at least 1. */
export const paging = z.strictObject({
  limit: z.number().int().min(5).max(50),
  page: z.number().int().min(1).max(INT32_MAX),
});
export type Paging = z.infer<typeof paging>;

/** The `totalCapped` field of list responses: true when `total` is a lower bound (see `COUNT_CAP`). */
export const totalCapped = z.boolean();

/** Every response carries a message (DESIGN §3). */
export const messageResponse = z.object({ message: z.string() });

/** The error body: message plus every field error. */
export const errorResponse = z.object({
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
