/** Toasts (SPEC §8): top-right, closing after 5000 ms, carrying the server's message. */
import { notifications } from '@mantine/notifications';

export function toastSuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 5000 });
}

export function toastError(message: string): void {
  notifications.show({
    color: 'red',
    title: 'Error',
    message,
    autoClose: 5000,
  });
}
