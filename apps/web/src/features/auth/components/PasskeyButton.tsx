/**
 * "Sign in with a passkey" (DESIGN §11.1): no nickname needed, the browser offers the passkeys it holds
 * for this site. With `cAppAuthRequest` it signs in for a creator app's consent request (DESIGN §7) and the
 * browser goes to the app. Hidden where passkeys cannot work (an IP-address origin, no browser support).
 */
import { Button } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { leaveForApp } from '../../../lib/app-url.ts';
import { toastError } from '../../../lib/notify.ts';
import { passkeyErrorMessage, passkeysUnavailableReason } from '../../../lib/passkeys.ts';
import { usePasskeyLogin } from '../api/passkey-login.ts';
import { useEnterApp } from '../hooks/use-enter-app.ts';

export function PasskeyButton({ cAppAuthRequest }: { cAppAuthRequest?: string }) {
  const login = usePasskeyLogin();
  const enterApp = useEnterApp();
  if (passkeysUnavailableReason() !== null) return null;

  const start = async () => {
    try {
      const res = await login.mutateAsync(cAppAuthRequest);
      if ('url' in res) {
        // A creator app's consent: no session; the browser leaves for the app, if it may open the URL.
        const problem = leaveForApp(res.url);
        if (problem !== null) toastError(problem);
        return;
      }
      await enterApp(res);
    } catch (err) {
      toastError(passkeyErrorMessage(err));
    }
  };

  return (
    <Button
      type="button"
      variant="default"
      leftSection={<IconFingerprint size={18} aria-hidden />}
      loading={login.isPending}
      onClick={() => void start()}
    >
      Sign in with a passkey
    </Button>
  );
}
