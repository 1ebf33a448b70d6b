/** Mantine form <-> shared Zod schemas: inline messages in SPEC §5's form, empty fields dropped. */
import type { FormErrors } from '@mantine/form';
import { issueMessage } from '@starlight/shared';
import type { z } from 'zod';

/** SPEC §5 client forms: empty values (and blank strings) are removed before sending. */
export function dropEmpty<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === '' || v === null || v === undefined) continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * A Mantine `validate` function from a shared request schema (first message per field). `words` turns
 * each message into the text shown (e.g. `inWords` of lib/field-words.ts); by default SPEC §5's form.
 */
export function schemaValidate<V extends Record<string, unknown>>(
  schema: z.ZodType,
  prepare: (values: V) => unknown = (v) => dropEmpty(v),
  words: (message: string) => string = (message) => message,
): (values: V) => FormErrors {
  return (values) => {
    const result = schema.safeParse(prepare(values));
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const field = issue.code === 'unrecognized_keys' ? String(issue.keys[0] ?? '') : issue.path.map(String).join('.');
      if (!(field in errors)) errors[field] = words(issueMessage(issue));
    }
    return errors;
  };
}
