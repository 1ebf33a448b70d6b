/**
 * SPEC §2 user area (/userbank): tabs Profile, Bank of Starlight, User Logs, Forge on desktop; on a
 * phone the mobile user console (Assets, Transfers, Account). The forge's screens belong to the forge
 * feature: the app composes them in through `panels`.
 */
import { Loader, SegmentedControl, SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type ComponentType, Suspense } from 'react';
import { parseUserBankSearch } from '../../../lib/route-search.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { useTxLogUrl } from '../hooks/use-tx-log-url.ts';
import { GameItems } from './GameItems.tsx';
import { MobileConsole } from './MobileConsole.tsx';
import { MyInfo } from './MyInfo.tsx';
import { MyTokens } from './MyTokens.tsx';
import { TransactionLog } from './TransactionLog.tsx';

const route = getRouteApi('/userbank');

/** Screens of the user area that other features own: the Forge tab, the Forge and Checkout Logs sub-tabs. */
export interface UserBankPanels {
  forge: ComponentType;
  forgeLogs: ComponentType;
  checkoutLogs: ComponentType;
}

/** A panel of another feature, loaded with its tab. */
function Panel({ of: Of }: { of: ComponentType }) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <Of />
    </Suspense>
  );
}

type LogView = NonNullable<ReturnType<typeof route.useSearch>['log']>;

/** The sub-tab is the `log` search param; switching it drops the log's filters (SPEC §4: page 1). */
function UserLogs({ panels }: { panels: UserBankPanels }) {
  const { log: sub = 'user' } = route.useSearch({ select: parseUserBankSearch });
  const navigate = useNavigate();
  const txLog = useTxLogUrl();
  return (
    <Stack>
      <SegmentedControl
        value={sub}
        onChange={(v) =>
          navigate({ to: '/userbank', search: { tab: 'logs', log: v === 'user' ? undefined : (v as LogView) } })
        }
        data={[
          { value: 'user', label: 'User Logs' },
          { value: 'checkout', label: 'Checkout Logs' },
          { value: 'forge', label: 'Forge Logs' },
        ]}
        w="fit-content"
      />
      {sub === 'user' && <TransactionLog url={txLog} />}
      {sub === 'checkout' && <Panel of={panels.checkoutLogs} />}
      {sub === 'forge' && <Panel of={panels.forgeLogs} />}
    </Stack>
  );
}

function Holdings() {
  const { holdings = 'currency' } = route.useSearch({ select: parseUserBankSearch });
  return (
    <Tabs defaultValue={holdings} keepMounted={false}>
      <Tabs.List mb="sm">
        <Tabs.Tab value="currency">Currency</Tabs.Tab>
        <Tabs.Tab value="items">Game Items</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="currency">
        <MyTokens />
      </Tabs.Panel>
      <Tabs.Panel value="items">
        <GameItems />
      </Tabs.Panel>
    </Tabs>
  );
}

export function UserBankPage({ panels }: { panels: UserBankPanels }) {
  const user = useRequireSession();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const { tab = 'profile' } = route.useSearch({ select: parseUserBankSearch });
  const navigate = useNavigate();
  if (!user) return <Loader m="xl" />;
  if (isPhone) return <MobileConsole user={user} logsOpen={tab === 'logs'} panels={panels} />;
  return (
    <Stack maw={1100} mx="auto">
      <Title order={2}>My account</Title>
      <Tabs
        value={tab}
        onChange={(v) => navigate({ to: '/userbank', search: { tab: (v ?? 'profile') as typeof tab } })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="bank">Bank of Starlight</Tabs.Tab>
          <Tabs.Tab value="logs">User Logs</Tabs.Tab>
          <Tabs.Tab value="forge">Forge</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <MyInfo user={user} />
            <Holdings />
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="bank">
          <Holdings />
        </Tabs.Panel>
        <Tabs.Panel value="logs">
          <UserLogs panels={panels} />
        </Tabs.Panel>
        <Tabs.Panel value="forge">
          <Panel of={panels.forge} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
