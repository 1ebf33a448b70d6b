/**
 * The creator console's form rules in words (SPEC §5 lengths, DESIGN §7 app URLs and item data): a
 * schema's or the server's `"{field}" is required` / `contains an invalid value` becomes the field's label
 * or its rule in a sentence, shown at the field (a list's entry, `redirectUrls.1`, at its list's field).
 */
import type { FormErrors } from '@mantine/form';
import { IS_REQUIRED, type ItemData, issueMessage, itemData } from '@starlight/shared';
import type { z } from 'zod';
import { fieldErrors } from '../../../lib/errors.ts';
import type { FieldWords } from '../../../lib/field-words.ts';

export const CREATOR_WORDS = {
  collectionId: { label: 'Collection', rule: 'Choose one of your collections' },
  itemId: { label: 'Item', rule: 'Choose one of your items' },
  owner: { label: 'Owner', rule: "Owner must be a member's nickname: 3 to 32 letters or digits" },
  name: { label: 'Name', rule: 'Name must be 3 to 127 characters' },
  description: { label: 'Description', rule: 'Description must be 12 to 511 characters, or left empty' },
  imgUrl: { label: 'Image URL', rule: 'Image URL must be a full https:// address, like https://example.com/ship.png' },
  redirectUrls: {
    label: 'App redirect URLs',
    rule: 'Each app redirect URL must be a full https:// address (http:// only on localhost), at most 10',
  },
  cancelUrl: {
    label: 'App cancel URL',
    rule: 'App cancel URL must be a full https:// address (http:// only on localhost)',
  },
  metadata: {
    label: 'Metadata',
    rule: 'Metadata may hold only text, numbers, true or false and nested objects: up to 4 levels, 50 keys each, 8 KB',
  },
} as const satisfies Record<string, FieldWords>;

type Field = keyof typeof CREATOR_WORDS;
const SPEC_FORM = /^"([^".]+)(?:\.[^"]*)?" (is required|contains an invalid value)$/;

/** `message` in words when it is SPEC's form about a field named here; any other message unchanged. */
export function creatorWords(message: string): string {
  const match = SPEC_FORM.exec(message);
  const words = match?.[1] ? CREATOR_WORDS[match[1] as Field] : undefined;
  if (!match || !words) return message;
  return match[2] === IS_REQUIRED ? `${words.label} is required` : words.rule;
}

/** A Mantine `validate` from a request schema: the first message per top-level field, in words. */
export function validateIn<V>(schema: z.ZodType, prepare: (values: V) => unknown): (values: V) => FormErrors {
  return (values) => {
    const result = schema.safeParse(prepare(values));
    const errors: FormErrors = {};
    if (result.success) return errors;
    for (const issue of result.error.issues) {
      const field = String(issue.code === 'unrecognized_keys' ? issue.keys[0] : (issue.path[0] ?? ''));
      if (!(field in errors)) errors[field] = creatorWords(issueMessage(issue));
    }
    return errors;
  };
}

/** The server's field errors of `err` at the form's top-level fields, in words. */
export function serverErrorsIn(err: unknown): FormErrors {
  const errors: FormErrors = {};
  for (const [field, message] of Object.entries(fieldErrors(err))) {
    const top = field.split('.')[0] ?? field;
    if (!(top in errors)) errors[top] = creatorWords(message);
  }
  return errors;
}

/** Why `url` cannot be an image's address (an https:// URL), or null when it can; empty is fine. */
export function imageUrlProblem(url: string): string | null {
  const text = url.trim();
  if (text === '') return null;
  try {
    return new URL(text).protocol === 'https:' ? null : CREATOR_WORDS.imgUrl.rule;
  } catch {
    return CREATOR_WORDS.imgUrl.rule;
  }
}

export const METADATA_NOT_OBJECT = 'Metadata must be a JSON object, like {"class": "scout", "stats": {"speed": 7}}';

/** The metadata textarea's text as item data (empty: `{}`), or the problem in words. */
export function parseMetadata(text: string): { data: ItemData } | { problem: string } {
  if (text.trim() === '') return { data: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: METADATA_NOT_OBJECT };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: METADATA_NOT_OBJECT };
  const checked = itemData.safeParse(parsed);
  return checked.success ? { data: checked.data } : { problem: CREATOR_WORDS.metadata.rule };
}
