/**
 * "Sign in with wallet" / "Register with wallet" (SPEC §2): runs the wallet flow and shows its state
 * (SPEC §4) as the button's text while it runs. With `cAppAuthRequest` it signs in for a creator app's
 * consent request (DESIGN §7) and the browser goes to the app.
 */
import { Button, Loader } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { useWalletAuth, WALLET_STATE_LABELS } from '../hooks/use-wallet-auth.ts';

export function WalletButton({
  mode,
  referrer,
  cAppAuthRequest,
  onMfaRequired,
}: {
  mode: 'login' | 'register';
  referrer?: string;
  cAppAuthRequest?: string;
  /** The account has a second factor (DESIGN §11.1): the page asks for the code with this token. */
  onMfaRequired?: (mfaToken: string) => void;
}) {
  const { state, start } = useWalletAuth(mode, cAppAuthRequest, onMfaRequired);
  const busy = state !== 'Idle';
  const label = mode === 'register' ? 'Register with wallet' : 'Sign in with wallet';
  return (
    <Button
      type="button"
      variant="default"
      leftSection={busy ? <Loader size={16} /> : <IconWallet size={18} aria-hidden />}
      disabled={busy}
      aria-busy={busy}
      onClick={() => void start(referrer ? { referrer } : {})}
    >
      {busy ? WALLET_STATE_LABELS[state] : label}
    </Button>
  );
}
