/** Error text for toasts and inline alerts: the server's `message` (SPEC §8) or the error's own text. */
import { ApiError } from './api.ts';

/** The text to show for any failure: an ApiError's server message, an Error's message, else the value as text. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The server's per-field messages (DESIGN §3 `errors`) keyed by field, for a form's inline errors. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) for (const e of err.errors) if (e.field && !(e.field in out)) out[e.field] = e.message;
  return out;
}
