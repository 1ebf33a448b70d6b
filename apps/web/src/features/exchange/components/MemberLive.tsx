/** A signed-in member's own live feed (balances, orders) on every page; the Quantum Hub runs its own socket. */
import { useExchangeSocket } from '../hooks/use-exchange-socket.ts';

export function MemberLive() {
  useExchangeSocket(null);
  return null;
}
