/**
 * SPEC §2 Admin Console, Cex Control tab: Create Trading Pair; the Trading Pairs list (name, buy
 * currency, sale currency, fees, status) with Modify, Delete (confirmed) and View Orders. The list reloads on
 * 'Pair modified' (SPEC §8) through the mutations' invalidation. A phone shows one card per pair with its
 * buttons in view (the wide table hid them off to the right, behind a sideways scroll).
 */
import { Badge, Button, Card, Group, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Pair } from '@starlight/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError } from '../../../lib/notify.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useDeletePair } from '../api/delete-pair.ts';
import { usePairs } from '../api/get-pairs.ts';
import { toastServerMessage } from '../utils/messages.ts';
import { PairFormModal } from './PairFormModal.tsx';
import { PairOrdersModal } from './PairOrdersModal.tsx';

/**
 * A pair's status in words, never empty: Trading or Frozen, whether buys and sells are taken,
 * and Hidden when members do not see it.
 */
function PairStatus({ pair }: { pair: Pair }) {
  return (
    <Group gap={4} data-testid="pair-status">
      {pair.frozen ? (
        <Badge size="sm" variant="light" color="yellow" title={pair.frozenNote || undefined}>
          Frozen
        </Badge>
      ) : (
        <Badge size="sm" variant="outline" color="teal">
          Trading
        </Badge>
      )}
      <Badge size="sm" variant="light" color={pair.canBuy ? 'teal' : 'red'}>
        Buys {pair.canBuy ? 'on' : 'off'}
      </Badge>
      <Badge size="sm" variant="light" color={pair.canSell ? 'teal' : 'red'}>
        Sells {pair.canSell ? 'on' : 'off'}
      </Badge>
      {!pair.visible && (
        <Badge size="sm" variant="light" color="gray">
          Hidden
        </Badge>
      )}
    </Group>
  );
}

/** Modify, View Orders and Delete of one pair (named with the pair, since every row has them). */
function PairActions({
  pair,
  onModify,
  onView,
  onDelete,
}: {
  pair: Pair;
  onModify: () => void;
  onView: () => void;
  onDelete: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-sm" variant="light" onClick={onModify} aria-label={`Modify ${pair.name}`}>
        Modify
      </Button>
      <Button size="compact-sm" variant="light" onClick={onView} aria-label={`View Orders of ${pair.name}`}>
        View Orders
      </Button>
      <Button size="compact-sm" variant="light" color="red" onClick={onDelete} aria-label={`Delete ${pair.name}`}>
        Delete
      </Button>
    </Group>
  );
}

/** A pair's fees in words: `0.2% → treasury`, or `maker 0.1% · taker 0.2%` when they differ (DESIGN §11.4). */
function feeText(p: Pair): string {
  const fees =
    p.makerFee === p.takerFee
      ? `${fractionToPercent(p.makerFee)}%`
      : `maker ${fractionToPercent(p.makerFee)}% · taker ${fractionToPercent(p.takerFee)}%`;
  return p.feeCollector ? `${fees} → ${p.feeCollector}` : fees;
}

export function CexControlPanel() {
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const pairs = usePairs();
  const { byId } = useCurrencies();
  const remove = useDeletePair();
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
      toastError(errorMessage(err));
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
        {pairs.isError && <Text c="red.4">{errorMessage(pairs.error)}</Text>}
        {pairs.isLoading ? (
          <Text c="dimmed">Loading…</Text>
        ) : list.length === 0 ? (
          <Text c="dimmed">No trading pairs yet</Text>
        ) : isPhone ? (
          <Stack gap="xs" component="ul" aria-label="Trading Pairs" m={0} p={0} style={{ listStyle: 'none' }}>
            {list.map((p) => (
              <Card key={p._id} component="li" withBorder radius="sm" p="sm" aria-label={p.name}>
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs">
                    <Text fw={500}>{p.name}</Text>
                    <PairStatus pair={p} />
                  </Group>
                  <Text size="sm">
                    <Text span c="dimmed" inherit>
                      Buy currency{' '}
                    </Text>
                    {currencyText(p.buyCurrency)}
                    <br />
                    <Text span c="dimmed" inherit>
                      Sale currency{' '}
                    </Text>
                    {currencyText(p.sellCurrency)}
                    <br />
                    <Text span c="dimmed" inherit>
                      Fee{' '}
                    </Text>
                    {feeText(p)}
                  </Text>
                  <PairActions
                    pair={p}
                    onModify={() => setForm({ pair: p })}
                    onView={() => setViewing(p)}
                    onDelete={() => setDeleting(p)}
                  />
                </Stack>
              </Card>
            ))}
          </Stack>
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
                    <Table.Td>{feeText(p)}</Table.Td>
                    <Table.Td>
                      <PairStatus pair={p} />
                    </Table.Td>
                    <Table.Td>
                      <PairActions
                        pair={p}
                        onModify={() => setForm({ pair: p })}
                        onView={() => setViewing(p)}
                        onDelete={() => setDeleting(p)}
                      />
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
      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete Trading Pair"
        deleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        Delete {deleting?.name}? Its open orders are cancelled and their escrow returned to their owners.
      </ConfirmDeleteModal>
    </Card>
  );
}
