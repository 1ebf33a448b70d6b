/**
 * Toasts (SPEC §8): top-right, closing after 5000 ms (the container's `autoClose`, app/Toasts.tsx),
 * carrying the server's message. The toast container (app/providers.tsx) loads with the first toast
 * (lib/toasts-shown.ts). On a phone only the newest toast shows: a new one replaces the ones on screen,
 * so toasts never pile up over the page's controls; a wider screen shows the newest three.
 */
import { notifications, notificationsStore } from '@mantine/notifications';
import { plainWords } from './field-words.ts';
import { useToastsShown } from './toasts-shown.ts';

/** The screens that show one toast at a time (the phone layout of DashboardPage and the bank pages). */
export const PHONE_TOASTS = '(max-width: 48em)';

/** The most toasts on screen at once on a wider screen: a new one closes the oldest beyond it. */
export const MAX_TOASTS = 3;

function onPhone(): boolean {
  return typeof window !== 'undefined' && (window.matchMedia?.(PHONE_TOASTS).matches ?? false);
}

/** Shows a toast; returns its id (for `hideToast`). */
function show(options: Parameters<typeof notifications.show>[0]): string {
  useToastsShown.setState({ shown: true });
  if (onPhone()) notifications.clean();
  else {
    // The newest toasts stay: the oldest close (not queue) so the new one shows at once.
    const { notifications: shown } = notificationsStore.getState();
    for (const old of shown.slice(0, Math.max(0, shown.length - (MAX_TOASTS - 1)))) {
      if (old.id) notifications.hide(old.id);
    }
  }
  return notifications.show(options);
}

/** A green toast with `message`; returns its id. */
export function toastSuccess(message: string): string {
  return show({ color: 'teal', message });
}

/** A red 'Error' toast with `message` (the server's, SPEC §8, a field key said in words); returns its id. */
export function toastError(message: string): string {
  return show({ color: 'red', title: 'Error', message: plainWords(message) });
}

/** A blue toast with `message`: news that is neither a success nor a failure ('You have no key yet'). */
export function toastInfo(message: string): string {
  return show({ color: 'blue', message });
}

/** Closes the toast `id` now (nothing when it already closed). */
export function hideToast(id: string): void {
  notifications.hide(id);
}

/** A blue toast with a `title` over `message`: news the member did not ask for (a live notification). */
export function toastNotice(title: string, message: string): string {
  // The description in the body's colour, not Mantine's dimmed one, which is too faint under a title.
  return show({ color: 'blue', title, message, styles: { description: { color: 'var(--mantine-color-text)' } } });
}

/** Closes every toast on screen (the bell's panel, opening, shows the same news). */
export function clearToasts(): void {
  notifications.clean();
}
