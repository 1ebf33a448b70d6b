/**
 * One Idempotency-Key per submission (DESIGN §3): resubmitting the same body after a failure (a lost
 * answer, a double click) reuses the key, so the server never moves the money twice; a different body
 * gets a fresh key, and `reset` starts over after a success.
 */
import { useRef } from 'react';
import { newIdempotencyKey } from './api.ts';

/** `keyFor(body)`: the key to send with `body`; `reset()`: forget it after a success. */
export function useIdempotencyKey() {
  const last = useRef<{ body: string; key: string } | null>(null);
  return {
    keyFor(body: unknown): string {
      const text = JSON.stringify(body);
      if (last.current?.body !== text) last.current = { body: text, key: newIdempotencyKey() };
      return last.current.key;
    },
    reset(): void {
      last.current = null;
    },
  };
}
