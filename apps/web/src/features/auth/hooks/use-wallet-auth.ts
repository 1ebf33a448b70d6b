/**
 * The wallet flow (SPEC §2 "Wallet flow available on login and register", §4 wallet operation states,
 * §8 wallet messages; DESIGN §8): connect the browser wallet (`window.ethereum`, plain viem, no SDK),
 * ask the server for the EIP-4361 message, have the wallet sign it (`personal_sign`), then register or
 * sign in with the signature and keep the session as the password sign-in does. On a creator app's
 * consent page (DESIGN §7) the sign-in carries `cAppAuthRequest` instead: no session, the browser goes
 * to the app's URL.
 */
import { useRef, useState } from 'react';
import type {} from 'viem/window';
import { leaveForApp } from '../../../lib/app-url.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { useGetNoncedMessage } from '../api/get-nonced-message.ts';
import { useLoginWallet } from '../api/login-wallet.ts';
import { useRegisterWallet } from '../api/register-wallet.ts';
import { useEnterApp } from './use-enter-app.ts';

/** SPEC §4 wallet operation states. */
export type WalletState = 'Idle' | 'WaitForNonce' | 'GotNonce' | 'WaitForSig' | 'WaitForFinish';

/** SPEC §8 wallet messages. */
export const WALLET_MESSAGES = {
  noProvider: 'No Metamask browser extension detected',
  noAccount: 'No account selected!',
  notReady: 'Metamask not ready',
  notSigned: 'You need to sign the message to continue',
  failed: 'Wallet Authentication: Failed',
} as const;

/** What a state says on the button while the flow runs (Idle shows the button's own label). */
export const WALLET_STATE_LABELS: Record<Exclude<WalletState, 'Idle'>, string> = {
  WaitForNonce: 'Connecting wallet…',
  GotNonce: 'Message received…',
  WaitForSig: 'Waiting for signature…',
  WaitForFinish: 'Signing in…',
};

/** A failure of the flow whose message is already the one to toast. */
class WalletFlowError extends Error {}

/**
 * The wallet flow for `mode` ('login' or 'register'): `state` (SPEC §4) and `start`, which runs the
 * whole flow once (a second call while one runs is ignored). Every failure is toasted with SPEC §8's
 * message (or the server's, e.g. `Wallet already registered`) and the state goes back to Idle; success
 * stores the session and opens /dashboard, or with `cAppAuthRequest` (a sign-in for a creator app) sends
 * the browser to the app's URL with its code. An account with a second factor (DESIGN §11.1) gets no
 * session yet: `onMfaRequired` receives the token the page's code step sends with the code.
 */
export function useWalletAuth(
  mode: 'login' | 'register',
  cAppAuthRequest?: string,
  onMfaRequired?: (mfaToken: string) => void,
) {
  const [state, setStateValue] = useState<WalletState>('Idle');
  // The state as the running flow sees it, so a second click before React re-renders is ignored too.
  const current = useRef<WalletState>('Idle');
  const setState = (next: WalletState) => {
    current.current = next;
    setStateValue(next);
  };
  const nonce = useGetNoncedMessage();
  const loginWallet = useLoginWallet();
  const registerWallet = useRegisterWallet();
  const enterApp = useEnterApp();

  const start = async (options: { referrer?: string } = {}) => {
    if (current.current !== 'Idle') return;
    const provider = window.ethereum;
    if (!provider) {
      toastError(WALLET_MESSAGES.noProvider);
      return;
    }
    setState('WaitForNonce');
    try {
      // viem loads with the first wallet sign-in, not with the page.
      const { createWalletClient, custom } = await import('viem');
      const client = createWalletClient({ transport: custom(provider) });
      let addresses: readonly `0x${string}`[];
      try {
        addresses = await client.requestAddresses();
      } catch {
        throw new WalletFlowError(WALLET_MESSAGES.notReady);
      }
      const address = addresses[0];
      if (!address) throw new WalletFlowError(WALLET_MESSAGES.noAccount);
      const { messageToSign } = await nonce.mutateAsync({ walletAddress: address });
      setState('GotNonce');
      setState('WaitForSig');
      let signature: `0x${string}`;
      try {
        signature = await client.signMessage({ account: address, message: messageToSign });
      } catch {
        throw new WalletFlowError(WALLET_MESSAGES.notSigned);
      }
      setState('WaitForFinish');
      const res =
        mode === 'register'
          ? await registerWallet.mutateAsync({
              walletAddress: address,
              signature,
              ...(options.referrer ? { referrer: options.referrer } : {}),
            })
          : await loginWallet.mutateAsync({
              walletAddress: address,
              signature,
              ...(cAppAuthRequest ? { cAppAuthRequest } : {}),
            });
      if ('mfaRequired' in res) {
        // DESIGN §11.1: the page asks for the second factor with this token.
        setState('Idle');
        if (onMfaRequired) onMfaRequired(res.mfaToken);
        else toastError('This account uses two-factor authentication: sign in on the sign-in page');
        return;
      }
      if ('url' in res) {
        // A creator app's consent: no session; the browser leaves for the app (the button stays busy),
        // only for a URL the browser may open (DESIGN §7; otherwise the message, and no navigation).
        const problem = leaveForApp(res.url);
        if (problem !== null) throw new WalletFlowError(problem);
        return;
      }
      setState('Idle');
      await enterApp(res);
    } catch (err) {
      setState('Idle');
      toastError(err instanceof WalletFlowError ? err.message : errorMessage(err) || WALLET_MESSAGES.failed);
    }
  };

  return { state, start };
}
