/**
 * SPEC §2 mobile user console: Assets (default: My Tokens with refresh, My Assets collections; tapping
 * a token opens its logs), Transfers (P2P Transfer, Distribute Currency), Account (Profile, Settings, Forge;
 * and ours, Checkout Logs).
 * The open log is in the URL like the desktop's (`tab=logs` and its `tx*` filters), so a reload or a
 * link shared between a phone and a desktop shows the same rows.
 */
import { Button, Loader, Stack, Tabs, Text } from '@mantine/core';
import type { User } from '@starlight/shared';
import { IconArrowsExchange, IconUser, IconWallet } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { useTxLogUrl } from '../hooks/use-tx-log-url.ts';
import { DistributeModal } from './DistributeModal.tsx';
import { GameItems } from './GameItems.tsx';
import { MyInfo } from './MyInfo.tsx';
import { MyTokens } from './MyTokens.tsx';
import { TransactionLog } from './TransactionLog.tsx';
import { TransferModal } from './TransferModal.tsx';
import type { UserBankPanels } from './UserBankPage.tsx';

export function MobileConsole({ user, logsOpen, panels }: { user: User; logsOpen: boolean; panels: UserBankPanels }) {
  const [tab, setTab] = useState<string | null>('assets');
  const txLog = useTxLogUrl();
  const [transferOpen, setTransferOpen] = useState(false);
  const [distributeOpen, setDistributeOpen] = useState(false);
  const [account, setAccount] = useState<'profile' | 'forge' | 'checkout' | null>(null);
  const { forge: Forge, forgeLogs: ForgeLogs, checkoutLogs: CheckoutLogs } = panels;
  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false}>
      <Tabs.List grow mb="md">
        <Tabs.Tab value="assets" leftSection={<IconWallet size={16} />}>
          Assets
        </Tabs.Tab>
        <Tabs.Tab value="transfers" leftSection={<IconArrowsExchange size={16} />}>
          Transfers
        </Tabs.Tab>
        <Tabs.Tab value="account" leftSection={<IconUser size={16} />}>
          Account
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="assets">
        <Stack>
          <MyTokens onOpenLogs={(currencyId) => txLog.onSearch({ txCurrency: currencyId })} />
          {logsOpen && (
            <Stack gap="xs">
              <Button variant="subtle" size="xs" w="fit-content" onClick={txLog.close}>
                Close logs
              </Button>
              <TransactionLog url={txLog} />
            </Stack>
          )}
          <Stack gap="xs" component="section" aria-label="My Assets">
            <Text fw={600}>My Assets</Text>
            <GameItems />
          </Stack>
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="transfers">
        <Stack>
          <Button size="md" onClick={() => setTransferOpen(true)}>
            P2P Transfer
          </Button>
          <Button size="md" variant="light" onClick={() => setDistributeOpen(true)}>
            Distribute Currency
          </Button>
          <TransferModal opened={transferOpen} onClose={() => setTransferOpen(false)} />
          <DistributeModal opened={distributeOpen} onClose={() => setDistributeOpen(false)} />
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="account">
        <Stack>
          <Button variant={account === 'profile' ? 'filled' : 'light'} onClick={() => setAccount('profile')}>
            Profile
          </Button>
          <Button component={Link} to="/userconfig" variant="light">
            Settings
          </Button>
          <Button variant={account === 'forge' ? 'filled' : 'light'} onClick={() => setAccount('forge')}>
            Forge
          </Button>
          <Button variant={account === 'checkout' ? 'filled' : 'light'} onClick={() => setAccount('checkout')}>
            Checkout Logs
          </Button>
          {account === 'profile' && <MyInfo user={user} />}
          {account === 'checkout' && (
            <Suspense fallback={<Loader size="sm" />}>
              <CheckoutLogs />
            </Suspense>
          )}
          {account === 'forge' && (
            <Suspense fallback={<Loader size="sm" />}>
              <Forge />
              <ForgeLogs />
            </Suspense>
          )}
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
