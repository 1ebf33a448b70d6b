/** The toast container (SPEC §8: top-right, 5000 ms). */
import { Notifications } from '@mantine/notifications';

export function Toasts() {
  return <Notifications position="top-right" autoClose={5000} />;
}
