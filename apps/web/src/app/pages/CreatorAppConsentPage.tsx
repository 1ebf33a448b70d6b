/**
 * SPEC §2 /loginCApp/{authId}: the creator-app consent page (features/capp) with the wallet sign-in of
 * the auth feature beside its password form, composed here because a feature imports no other feature.
 */
import { WalletButton } from '../../features/auth/components/WalletButton.tsx';
import { CreatorAppLoginPage } from '../../features/capp/components/CreatorAppLoginPage.tsx';

const walletSignIn = (requestId: string) => <WalletButton mode="login" cAppAuthRequest={requestId} />;

export function CreatorAppConsentPage() {
  return <CreatorAppLoginPage walletSignIn={walletSignIn} />;
}
