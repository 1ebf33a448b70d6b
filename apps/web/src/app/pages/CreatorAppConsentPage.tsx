/**
 * SPEC §2 /loginCApp/{authId}: the creator-app consent page (features/capp) with the passkey and wallet
 * sign-ins of the auth feature beside its password form, composed here because a feature imports no other
 * feature.
 */
import { PasskeyButton } from '../../features/auth/components/PasskeyButton.tsx';
import { WalletButton } from '../../features/auth/components/WalletButton.tsx';
import { CreatorAppLoginPage } from '../../features/capp/components/CreatorAppLoginPage.tsx';

const otherSignIns = (requestId: string, onMfaRequired: (mfaToken: string) => void) => (
  <>
    <PasskeyButton cAppAuthRequest={requestId} />
    <WalletButton mode="login" cAppAuthRequest={requestId} onMfaRequired={onMfaRequired} />
  </>
);

export function CreatorAppConsentPage() {
  return <CreatorAppLoginPage otherSignIns={otherSignIns} />;
}
