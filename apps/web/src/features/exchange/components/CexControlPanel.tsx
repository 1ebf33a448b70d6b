/**
 * SPEC §2 Admin Console, Cex Control tab: Create Trading Pair; the Trading Pairs list (name, buy
 * currency, sale currency, flags) with Modify, Delete (confirmed) and View Orders. The list reloads on
 * 'Pair modified' (SPEC §8) through the mutations' invalidation.
 */
import { Badge, Button, Card, Group, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import type { Pair } from '@starlight/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { toastError } from '../../../lib/notify.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useCurrencies } from '../../bank/api/currencies.ts';
import { usePairMutations, usePairs } from '../api/pairs.ts';
import { errorText, toastServerMessage } from '../utils/messages.ts';
import { PairFormModal } from './PairFormModal.tsx';
import { PairOrdersModal } from './PairOrdersModal.tsx';

function Flags({ pair }: { pair: Pair }) {
  return (
    <Group gap={4}>
      {!pair.visible && (
        <Badge size="xs" color="gray">
          Hidden
        </Badge>
      )}
      {pair.frozen && (
        <Badge size="xs" color="yellow">
          Frozen
        </Badge>
      )}
      {!pair.canBuy && (
        <Badge size="xs" color="red" variant="light">
          No buys
        </Badge>
      )}
      {!pair.canSell && (
        <Badge size="xs" color="red" variant="light">
          No sells
        </Badge>
      )}
    </Group>
  );
}

export function CexControlPanel() {
  const pairs = usePairs();
  const { byId } = useCurrencies();
  const { remove } = usePairMutations();
  const [form, setForm] = useState<{ pair: Pair | null } | null>(null);
  const [viewing, setViewing] = useState<Pair | null>(null);
  const [deleting, setDeleting] = useState<Pair | null>(null);
  const currencyText = (id: number) => {
    const c = byId.get(id);
    return c ? `${c.ticker} · ${c.name}` : `#${id}`;
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      toastServerMessage((await remove.mutateAsync(deleting._id)).message);
      setDeleting(null);
    } catch (err) {
      toastError(errorText(err));
    }
  };

  const list = pairs.data ?? [];
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="cex-control-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} id="cex-control-title">
            Trading Pairs
          </Title>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setForm({ pair: null })}>
            Create Trading Pair
          </Button>
        </Group>
        {pairs.isError && <Text c="red.4">{errorText(pairs.error)}</Text>}
        {pairs.isLoading ? (
          <Text c="dimmed">Loading…</Text>
        ) : list.length === 0 ? (
          <Text c="dimmed">No trading pairs yet</Text>
        ) : (
          <ScrollArea>
            <Table aria-label="Trading Pairs" striped miw={640} verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Buy currency</Table.Th>
                  <Table.Th>Sale currency</Table.Th>
                  <Table.Th>Fee</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((p) => (
                  <Table.Tr key={p._id}>
                    <Table.Td fw={500}>{p.name}</Table.Td>
                    <Table.Td>{currencyText(p.buyCurrency)}</Table.Td>
                    <Table.Td>{currencyText(p.sellCurrency)}</Table.Td>
                    <Table.Td>
                      {fractionToPercent(p.fee)}%{p.feeCollector ? ` → ${p.feeCollector}` : ''}
                    </Table.Td>
                    <Table.Td>
                      <Flags pair={p} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setForm({ pair: p })}
                          aria-label={`Modify ${p.name}`}
                        >
                          Modify
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setViewing(p)}
                          aria-label={`View Orders of ${p.name}`}
                        >
                          View Orders
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="light"
                          color="red"
                          onClick={() => setDeleting(p)}
                          aria-label={`Delete ${p.name}`}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
      <PairFormModal opened={form !== null} pair={form?.pair ?? null} onClose={() => setForm(null)} />
      <PairOrdersModal pair={viewing} onClose={() => setViewing(null)} />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete Trading Pair">
        <Stack gap="sm">
          <Text>Delete {deleting?.name}? Its open orders are cancelled and their escrow returned to their owners.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => void confirmDelete()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
