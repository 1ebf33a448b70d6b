/**
 * SPEC §2 Settings (/userconfig): the account (wallet-only members change nickname and e-mail, others
 * their password), the Private checkbox (isAnonymous) with Update Status, two-factor authentication, passkeys,
 * the sign-in sessions (DESIGN §11.1), which notifications also go by e-mail (DESIGN §11.3), the withdrawal
 * addresses, SPEC's API key panel (the key named Default) and the API keys (DESIGN §11.2), and the member's
 * data: download it, or delete the account (DESIGN §11.6).
 */
import { Loader, Stack, Title } from '@mantine/core';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { AccountCard } from './AccountCard.tsx';
import { ApiKeyPanel } from './ApiKeyPanel.tsx';
import { ApiKeysCard } from './ApiKeysCard.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { NotificationSettingsCard } from './NotificationSettingsCard.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import { PrivacyCard } from './PrivacyCard.tsx';
import { SessionsCard } from './SessionsCard.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';
import { WithdrawAddressesCard } from './WithdrawAddressesCard.tsx';
import { YourDataCard } from './YourDataCard.tsx';

export function UserConfigPage() {
  const user = useRequireSession();
  if (!user) return <Loader m="xl" />;
  return (
    <Stack maw={640} mx="auto">
      <Title order={2}>Settings</Title>
      <AccountCard user={user} />
      {!user.isWalletOnly && <ChangePasswordCard />}
      <TwoFactorCard on={user.mfa?.totp ?? false} />
      <PasskeysCard />
      <SessionsCard />
      <NotificationSettingsCard user={user} />
      <WithdrawAddressesCard />
      <PrivacyCard isAnonymous={user.isAnonymous} />
      <ApiKeyPanel />
      <ApiKeysCard />
      <YourDataCard user={user} />
    </Stack>
  );
}
