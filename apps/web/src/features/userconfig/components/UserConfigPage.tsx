/**
 * SPEC §2 Settings (/userconfig): the account (wallet-only members change nickname and e-mail, others
 * their password), the Private checkbox (isAnonymous) with Update Status, and the API key panel.
 */
import { Loader, Stack, Title } from '@mantine/core';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { AccountCard } from './AccountCard.tsx';
import { ApiKeyPanel } from './ApiKeyPanel.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { PrivacyCard } from './PrivacyCard.tsx';

export function UserConfigPage() {
  const user = useRequireSession();
  if (!user) return <Loader m="xl" />;
  return (
    <Stack maw={640} mx="auto">
      <Title order={2}>Settings</Title>
      <AccountCard user={user} />
      {!user.isWalletOnly && <ChangePasswordCard />}
      <PrivacyCard isAnonymous={user.isAnonymous} />
      <ApiKeyPanel />
    </Stack>
  );
}
