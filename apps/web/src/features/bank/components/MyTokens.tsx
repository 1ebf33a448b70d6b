/**
 * SPEC §2 Holdings, Currency tab 'My Tokens': refresh, Distribute Currency and help popups, and every
 * currency the member holds (the dashboard's list: Credits and chips too), each with the actions its
 * currency allows (Withdraw, Transfer); a currency that allows none shows its balance alone. The actions
 * sit beside the balance while there is room and under it when there is not, never over it.
 */
import { ActionIcon, Avatar, Button, Card, Group, List, Modal, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDownload, IconHelp, IconRefresh, IconSend, IconShare, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Money } from '../../../components/Money.tsx';
import { PanelSkeleton } from '../../../components/PageSkeleton.tsx';
import { useHoldings } from '../hooks/use-holdings.ts';
import { DistributeModal } from './DistributeModal.tsx';
import { type SettlementKind, SettlementModal } from './SettlementModal.tsx';
import { TransferModal } from './TransferModal.tsx';

export function MyTokens({ onOpenLogs }: { onOpenLogs?: (currencyId: number) => void }) {
  const { all: holdings, currencies, me, refresh } = useHoldings();
  const [transferFor, setTransferFor] = useState<number | null>(null);
  const [settling, setSettling] = useState<{ kind: SettlementKind; currencyId?: number } | null>(null);
  const depositable = (currencies.data ?? []).some((c) => c.canDeposit);
  const [distributeOpened, distribute] = useDisclosure(false);
  const [helpOpened, help] = useDisclosure(false);
  const loading = currencies.isLoading || me.isLoading;
  const noCurrencies = !currencies.isLoading && (currencies.data ?? []).length === 0;

  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          My Tokens
        </Title>
        <Group gap={4}>
          <Tooltip label="Refresh">
            <ActionIcon variant="subtle" aria-label="Refresh tokens" onClick={refresh} loading={me.isFetching}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Distribute Currency">
            <ActionIcon variant="subtle" aria-label="Distribute Currency" onClick={distribute.open}>
              <IconShare size={18} />
            </ActionIcon>
          </Tooltip>
          {depositable && (
            <Tooltip label="Deposit">
              <ActionIcon variant="subtle" aria-label="Deposit" onClick={() => setSettling({ kind: 'deposit' })}>
                <IconDownload size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Help">
            <ActionIcon variant="subtle" aria-label="Help about tokens" onClick={help.open}>
              <IconHelp size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {loading ? (
        <PanelSkeleton label="Loading my tokens" height={96} lines={2} style={{ border: 'none', padding: 0 }} />
      ) : noCurrencies ? (
        <Text c="dimmed">No currencies loaded, please refresh page.</Text>
      ) : holdings.length === 0 ? (
        <Text c="dimmed">You have no tokens.</Text>
      ) : (
        <Stack gap="xs">
          {holdings.map(({ currency, amount }) => (
            <Group
              key={currency.currencyId}
              justify="space-between"
              wrap="wrap"
              gap="xs"
              p="xs"
              style={{ borderRadius: 8, background: 'var(--mantine-color-dark-6)' }}
              data-testid={`token-${currency.ticker}`}
            >
              {/* At least 16rem for the name and balance: narrower, the actions go to the next line. */}
              <Group
                gap="sm"
                wrap="nowrap"
                style={{ cursor: onOpenLogs ? 'pointer' : undefined, minWidth: 0, flex: '1 1 16rem' }}
              >
                <Avatar src={currency.imgUrl || null} radius="xl" color="yellow" size="md">
                  {currency.ticker.slice(0, 2)}
                </Avatar>
                <div style={{ minWidth: 0 }}>
                  {onOpenLogs ? (
                    <Button variant="transparent" p={0} h="auto" onClick={() => onOpenLogs(currency.currencyId)}>
                      {currency.name}
                    </Button>
                  ) : (
                    <Text fw={600}>{currency.name}</Text>
                  )}
                  <Text
                    size="lg"
                    fw={700}
                    data-testid={`balance-${currency.ticker}`}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    <Money amount={amount} currency={currency} />
                  </Text>
                </div>
              </Group>
              <Group gap={6} wrap="wrap" justify="flex-end" style={{ flexShrink: 0, marginLeft: 'auto' }}>
                {currency.canWithdraw && (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconUpload size={14} />}
                    onClick={() => setSettling({ kind: 'withdrawal', currencyId: currency.currencyId })}
                    aria-label={`Withdraw ${currency.ticker}`}
                  >
                    Withdraw
                  </Button>
                )}
                {currency.canTransfer && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconSend size={14} />}
                    onClick={() => setTransferFor(currency.currencyId)}
                    aria-label={`Transfer ${currency.ticker}`}
                    style={{ flexShrink: 0 }}
                  >
                    Transfer
                  </Button>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <TransferModal
        key={transferFor ?? 'none'}
        opened={transferFor !== null}
        onClose={() => setTransferFor(null)}
        {...(transferFor !== null ? { currencyId: transferFor } : {})}
      />
      <DistributeModal opened={distributeOpened} onClose={distribute.close} />
      {settling && (
        <SettlementModal
          key={`${settling.kind}-${settling.currencyId ?? ''}`}
          kind={settling.kind}
          opened
          onClose={() => setSettling(null)}
          {...(settling.currencyId !== undefined ? { currencyId: settling.currencyId } : {})}
        />
      )}
      <Modal opened={helpOpened} onClose={help.close} title="About your tokens" centered>
        <List spacing="xs" size="sm">
          <List.Item>Your tokens are the currencies you hold a balance of.</List.Item>
          <List.Item>
            Transfer sends tokens to another member by nickname. Some currencies charge a transfer tax, shown before you
            send; you pay the amount you enter and the recipient receives it less the tax.
          </List.Item>
          <List.Item>
            Distribute Currency shares an amount among the holders of a currency, in proportion to their holdings.
          </List.Item>
          <List.Item>
            Withdraw sends tokens to your wallet: the amount and its tax leave your balance at once and an admin pays it
            out (a refused withdrawal comes back in full). Deposit claims tokens you sent from your wallet: an admin
            checks the transaction and credits you.
          </List.Item>
          <List.Item>Every movement appears in your User Logs.</List.Item>
        </List>
      </Modal>
    </Card>
  );
}
