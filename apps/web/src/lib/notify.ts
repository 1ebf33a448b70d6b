/**
 * Toasts (SPEC §8): top-right, closing after 5000 ms, carrying the server's message. The toast container
 * (app/providers.tsx) loads with the first toast (lib/toasts-shown.ts).
 */
import { notifications } from '@mantine/notifications';
import { useToastsShown } from './toasts-shown.ts';

function show(options: Parameters<typeof notifications.show>[0]): void {
  useToastsShown.setState({ shown: true });
  notifications.show(options);
}

/** A green toast with `message`. */
export function toastSuccess(message: string): void {
  show({ color: 'teal', message, autoClose: 5000 });
}

/** A red 'Error' toast with `message` (the server's, SPEC §8). */
export function toastError(message: string): void {
  show({ color: 'red', title: 'Error', message, autoClose: 5000 });
}

/** A blue toast with `message`: news that is neither a success nor a failure ('You have no key yet'). */
export function toastInfo(message: string): void {
  show({ color: 'blue', message, autoClose: 5000 });
}
