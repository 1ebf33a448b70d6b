/**
 * SPEC §5's field rules in words a member reads under a form field. The API's messages stay DESIGN §3's
 * `"{label}" is required` / `"{label}" contains an invalid value` (the contract programs rely on); the
 * account forms check with the shared schemas before sending and show these instead, and a server
 * message of that form about a field named here is shown in these words too.
 */
import { fieldLabel, IS_INVALID, IS_NOT_ALLOWED, IS_REQUIRED } from '@starlight/shared';

/** A field's label (for 'X is required') and its rule in a sentence (for a value that breaks it). */
export interface FieldWords {
  label: string;
  rule: string;
}

/** The account fields by their wire name (SPEC §5 rules). */
export const ACCOUNT_FIELD_WORDS = {
  nickname: { label: 'Nickname', rule: 'Nickname must be 3 to 32 letters or digits' },
  referrer: { label: 'Referrer', rule: "Referrer must be a member's nickname: 3 to 32 letters or digits" },
  email: { label: 'E-mail', rule: 'E-mail must be a valid address, like name@example.com' },
  // SPEC §5's own text; the form's description says the rule.
  password: { label: 'Password', rule: 'Password not strong enough' },
  nickOrEmail: { label: 'Nickname or e-mail', rule: 'Enter your nickname or e-mail' },
  currentPassword: { label: 'Current password', rule: 'Enter your current password' },
} as const satisfies Record<string, FieldWords>;

const SPEC_FORM = new RegExp(`^"([^"]+)" (${IS_REQUIRED}|${IS_INVALID})$`);

/**
 * `message` in words when it is SPEC's `"{field}" is required` or `"{field}" contains an invalid value`
 * for a field of `words` ('Nickname is required', 'Nickname must be 3 to 32 letters or digits'); any
 * other message (a rule's own text such as 'Password not strong enough', a business refusal) unchanged.
 */
export function inWords(
  message: string,
  words: Readonly<Record<string, FieldWords | undefined>> = ACCOUNT_FIELD_WORDS,
): string {
  const match = SPEC_FORM.exec(message);
  const field = match?.[1];
  const known = field === undefined ? undefined : words[field];
  if (!match || !known) return message;
  return match[2] === IS_REQUIRED ? `${known.label} is required` : known.rule;
}

/**
 * The words of a form's fields from their labels alone (SPEC §5: "Validation messages are generated from
 * field labels"): `{label} is required`, and `{label} contains an invalid value` for a value that breaks
 * the field's rule. `labels` maps each wire name (a nested one with dots: `input.amount`) to its label.
 */
export function labelWords(labels: Readonly<Record<string, string>>): Record<string, FieldWords> {
  return Object.fromEntries(
    Object.entries(labels).map(([field, label]) => [field, { label, rule: `${label} ${IS_INVALID}` }]),
  );
}

/** `inWords` for the fields of `words`, as a function of the message (for `schemaValidate`, `useAdminSubmit`). */
export function wordsOf(words: Readonly<Record<string, FieldWords | undefined>>): (message: string) => string {
  return (message) => inWords(message, words);
}

const ANY_SPEC_FORM = new RegExp(`^"([^"]+)" (${IS_REQUIRED}|${IS_INVALID}|${IS_NOT_ALLOWED})$`);

/**
 * Any message of SPEC's form with its field key said in words ('"amountAbove" contains an invalid value'
 * -> 'Amount above contains an invalid value'), so that no raw field key reaches a member; any other
 * message unchanged. The last step before a message is shown (lib/notify.ts), after a form's own words.
 */
export function plainWords(message: string): string {
  const match = ANY_SPEC_FORM.exec(message);
  if (!match?.[1]) return message;
  return `${fieldLabel(match[1])} ${match[2]}`;
}
