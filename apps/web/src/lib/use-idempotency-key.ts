/**
 * One Idempotency-Key per submission (DESIGN §3), the one pattern of every money-moving call: resending
 * the same body after a failure (a lost answer, 'Network Error', a double click) reuses the key, so the
 * server replays its first answer instead of moving the money twice; a changed body gets a fresh key,
 * and a success drops the key, so the next submission is a new one. A failure never drops it: the server
 * rolls a failed request's key back, so reusing it is safe whether or not the first attempt committed.
 */
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { newIdempotencyKey } from './api.ts';
import { errorMessage } from './errors.ts';
import { useSubmissionToasts } from './use-submission-toast.ts';

/**
 * The keys of one form or list. `target` names what a per-row action acts on (an order, a process, a
 * settlement): each target keeps the key of its own last body; a form leaves it out (one slot).
 */
export interface IdempotencyKeys {
  /** The key to send `body` with: the kept one when `target`'s last body was the same, else a fresh one. */
  keyFor(body: unknown, target?: string): string;
  /** Forgets `target`'s key: its submission succeeded. */
  done(target?: string): void;
}

/** Keys kept across the component's renders (see `IdempotencyKeys`). */
export function useIdempotencyKey(): IdempotencyKeys {
  const kept = useRef(new Map<string, { body: string; key: string }>());
  return {
    keyFor(body, target = '') {
      // A call without a body (undefined) keys as null, so it too is kept across retries.
      const text = JSON.stringify(body ?? null);
      const last = kept.current.get(target);
      if (last !== undefined && last.body === text) return last.key;
      const key = newIdempotencyKey();
      kept.current.set(target, { body: text, key });
      return key;
    },
    done(target = '') {
      kept.current.delete(target);
    },
  };
}

/**
 * A money-moving mutation: `mutate(variables)` calls `send(variables, key)` with the key of `variables`
 * (`useIdempotencyKey`; `target(variables)` for a per-row action), and a success drops that key before
 * `onSuccess` runs. A failure shows the error toast (SPEC §8) and a success closes that target's earlier
 * one (`useSubmissionToasts`), so the caller only toasts the success; `toastErrors: false` leaves failures
 * to the caller (an admin dialog's `useAdminSubmit`). Variables, result and error are `send`'s.
 */
export function useIdempotentMutation<V, R>({
  send,
  target,
  onSuccess,
  toastErrors = true,
}: {
  send: (variables: V, idempotencyKey: string) => Promise<R>;
  target?: (variables: V) => string;
  onSuccess?: (result: R, variables: V) => Promise<unknown> | unknown;
  toastErrors?: boolean;
}) {
  const keys = useIdempotencyKey();
  const toasts = useSubmissionToasts();
  return useMutation({
    mutationFn: (variables: V) => send(variables, keys.keyFor(variables, target?.(variables))),
    onSuccess: (result, variables) => {
      keys.done(target?.(variables));
      toasts.succeeded(target?.(variables));
      return onSuccess?.(result, variables);
    },
    onError: (err, variables) => {
      if (toastErrors) toasts.failed(errorMessage(err), target?.(variables));
    },
  });
}
