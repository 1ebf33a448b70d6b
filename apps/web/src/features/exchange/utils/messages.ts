/** SPEC §8: server messages become toasts, except the 'Got N …' read confirmations. */
import { toastSuccess } from '../../../lib/notify.ts';

export function isQuietMessage(message: string): boolean {
  return /^Got \d+ /.test(message);
}

export function toastServerMessage(message: string | undefined): void {
  if (message && !isQuietMessage(message)) toastSuccess(message);
}
