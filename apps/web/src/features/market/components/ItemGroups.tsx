/**
 * "By item" of the marketplace's Browse: every open listing grouped by item name and currency, from the
 * server (POST /api/market/listingsByItem, by name then currency, within Browse's filters), with the lowest price and how many are
 * open, 20 groups a page; Previous and Next follow the server's cursor. Choosing a name lists all of it,
 * lowest price first (`onPick`).
 */
import { Alert, Anchor, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ItemGroupCursor } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useListingsByItem } from '../api/market.ts';

const GROUPS = 20;

/** `collection`, `name` (the start of a name) and `currencyId`: Browse's filters (null or '': any). */
export function ItemGroups({
  collection,
  name,
  currencyId,
  onPick,
}: {
  collection: string | null;
  name: string;
  currencyId: string | null;
  onPick: (name: string, currencyId: number) => void;
}) {
  const { byId } = useCurrencies();
  // The cursors of the pages before the one shown (its own last): Previous pops one.
  const [cursors, setCursors] = useState<ItemGroupCursor[]>([]);
  // A new filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filters change
  useEffect(() => setCursors([]), [collection, name, currencyId]);
  const after = cursors.at(-1);
  const groups = useListingsByItem({
    limit: GROUPS,
    ...(after ? { after } : {}),
    ...(collection ? { itemCollectionId: collection } : {}),
    ...(name ? { name } : {}),
    ...(currencyId ? { currencyId: Number(currencyId) } : {}),
  });
  const rows = groups.data?.groups ?? [];
  const next = groups.data?.next ?? null;

  if (groups.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(groups.error)}
      </Alert>
    );
  }
  if (groups.isLoading) return <Skeleton h={160} />;
  if (rows.length === 0) {
    return (
      <Text c="dimmed" data-testid="market-empty">
        {collection || name || currencyId ? 'No open listings match these filters.' : 'Nothing is for sale yet.'}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Every open listing by item, name by name; choose one to list all of its name, lowest price first.
      </Text>
      <Table.ScrollContainer minWidth={320} type="native">
        <Table
          striped
          aria-label="Listings by item"
          style={{ opacity: groups.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Item</Table.Th>
              <Table.Th>Lowest price</Table.Th>
              <Table.Th>Listings</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((g) => (
              <Table.Tr key={`${g.name}-${g.currencyId}`} data-testid="item-group">
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component="button" type="button" ta="left" onClick={() => onPick(g.name, g.currencyId)}>
                    {g.name}
                  </Anchor>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatMoneyWithTicker(g.lowestPrice, byId.get(g.currencyId))}
                </Table.Td>
                <Table.Td>{g.count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {(cursors.length > 0 || next) && (
        <Group gap="sm">
          <Button
            variant="default"
            size="compact-sm"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Previous
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            disabled={!next || groups.isPlaceholderData}
            onClick={() => next && setCursors((c) => [...c, next])}
          >
            Next
          </Button>
        </Group>
      )}
    </Stack>
  );
}
