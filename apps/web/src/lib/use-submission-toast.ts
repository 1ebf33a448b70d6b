/**
 * The error toast of a submission (SPEC §8: a failure arrives as an error toast). A form or a row's
 * action keeps the toast of its last failure: a new failure replaces it, and a success closes it, so after
 * a retry that went through (a lost answer, then Send again: DESIGN §3) no stale 'Network Error' stays on
 * screen next to the success.
 */
import { useRef } from 'react';
import { hideToast, toastError } from './notify.ts';

/** The error toasts of one form or list; `slot` names the row an action acts on (a form leaves it out). */
export interface SubmissionToasts {
  /** Shows `message` as an error toast, closing `slot`'s earlier one. */
  failed(message: string, slot?: string): void;
  /** Closes `slot`'s error toast, if one is on screen: its submission went through. */
  succeeded(slot?: string): void;
}

/** Error toasts kept across the component's renders (see `SubmissionToasts`). */
export function useSubmissionToasts(): SubmissionToasts {
  const shown = useRef(new Map<string, string>());
  const close = (slot: string) => {
    const id = shown.current.get(slot);
    if (id !== undefined) hideToast(id);
    shown.current.delete(slot);
  };
  return {
    failed(message, slot = '') {
      close(slot);
      shown.current.set(slot, toastError(message));
    },
    succeeded(slot = '') {
      close(slot);
    },
  };
}
