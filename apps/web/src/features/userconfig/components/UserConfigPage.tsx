/**
 * SPEC §2 Settings (/userconfig): the account (wallet-only members change nickname and e-mail, others
 * their password), the Private checkbox (isAnonymous) with Update Status, the sign-in sessions (DESIGN §11.1)
 * and the API key panel.
 */
import { Loader, Stack, Title } from '@mantine/core';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { AccountCard } from './AccountCard.tsx';
import { ApiKeyPanel } from './ApiKeyPanel.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { PrivacyCard } from './PrivacyCard.tsx';
import { SessionsCard } from './SessionsCard.tsx';

export function UserConfigPage() {
  const user = useRequireSession();
  if (!user) return <Loader m="xl" />;
  return (
    <Stack maw={640} mx="auto">
      <Title order={2}>Settings</Title>
      <AccountCard user={user} />
      {!user.isWalletOnly && <ChangePasswordCard />}
      <PrivacyCard isAnonymous={user.isAnonymous} />
      <SessionsCard />
      <ApiKeyPanel />
    </Stack>
  );
}
