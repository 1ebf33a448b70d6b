/** POST /api/user/logout, then forget the session here: token, cached currencies and server data. */
import { api } from '../../../lib/api.ts';
import { clearCurrencyCache } from '../../../lib/currencies.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

/** Ends the session on the server (SPEC §4: the token stops working) and in the browser; never throws. */
export async function logout(): Promise<void> {
  await api<{ message: string }>('POST', '/user/logout', {}).catch(() => undefined);
  useSession.getState().clear();
  clearCurrencyCache();
  queryClient.clear();
}
