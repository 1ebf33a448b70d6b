/**
 * SPEC §2 Holdings, Game Items tab: a selector of the collections the member holds items of (with how
 * many; chosen already when there is one), the member's items of that collection grouped
 * by name (card: name, count, image, metadata, variable data), 10 a page from page 1, a Details
 * dialog with the image, description and stats, a Gift dialog that sends one to another member, and a Sell dialog that lists one on the marketplace. `No Data` when the collection holds none of theirs.
 */
import {
  Badge,
  Button,
  Card,
  Group,
  Image,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { formatTotal, type GroupedItem } from '@starlight/shared';
import { IconGift, IconTag } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ItemDataBadges, itemDataEntries } from '../../../components/ItemDataBadges.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useHeldCollections } from '../api/get-user-collections.ts';
import { useGroupedItems } from '../api/get-user-items-grouped.ts';
import { GiftItemModal } from './GiftItemModal.tsx';
import { SellItemModal } from './SellItemModal.tsx';

function Details({ item, onClose }: { item: GroupedItem | null; onClose: () => void }) {
  return (
    <Modal opened={item !== null} onClose={onClose} title={item?.name ?? ''}>
      {item && (
        <Stack gap="sm">
          {item.imgUrl && (
            <Image src={item.imgUrl} alt="" radius="sm" fallbackSrc="/favicon.svg" mah={220} fit="contain" />
          )}
          <Text>{item.description || 'No description'}</Text>
          <Table striped aria-label={`Stats of ${item.name}`}>
            <Table.Tbody>
              {[...itemDataEntries(item.metadata), ...itemDataEntries(item.variabledata)].map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th>{k}</Table.Th>
                  <Table.Td>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Modal>
  );
}

export function GameItems({ collectionId }: { collectionId?: string } = {}) {
  const collections = useHeldCollections();
  const [chosen, setChosen] = useState<string | null>(collectionId ?? null);
  const [page, setPage] = useState(1);
  const [details, setDetails] = useState<GroupedItem | null>(null);
  const [gifting, setGifting] = useState<GroupedItem | null>(null);
  const [selling, setSelling] = useState<GroupedItem | null>(null);
  const list = collections.data?.data ?? [];
  // One collection held: it is the one to show, no choice to make.
  const current = collectionId ?? chosen ?? (list.length === 1 ? (list[0]?._id ?? null) : null);
  const grouped = useGroupedItems(
    current ? { filters: { itemCollection: current }, paging: { limit: 10, page } } : null,
  );
  // A gift can empty the last page: show the one before it.
  const emptied = page > 1 && grouped.data !== undefined && grouped.data.data.length === 0;
  useEffect(() => {
    if (emptied) setPage((p) => p - 1);
  }, [emptied]);
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        {collectionId === undefined && (
          <Select
            label="Collection"
            placeholder={list.length === 0 ? 'No items yet' : 'Choose a collection'}
            data={list.map((c) => ({
              value: c._id,
              label: `${c.name} (${formatTotal(c.count, c.countCapped)} ${c.count === 1 ? 'item' : 'items'})`,
            }))}
            value={current}
            onChange={(v) => {
              setChosen(v);
              setPage(1);
            }}
            disabled={list.length === 0}
          />
        )}
        {collections.isError && <Text c="red.4">{errorMessage(collections.error)}</Text>}
        {!current ? (
          <Text c="dimmed">{list.length === 0 ? 'No Data' : 'Choose a collection to see your items.'}</Text>
        ) : grouped.isLoading ? (
          <Skeleton h={120} />
        ) : (grouped.data?.data.length ?? 0) === 0 ? (
          <Text c="dimmed">No Data</Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {grouped.data?.data.map((g) => (
                <Card key={g.name} withBorder radius="sm" p="sm" data-testid="item-card" aria-label={g.name}>
                  <Group wrap="nowrap" align="start" gap="sm">
                    <Image src={g.imgUrl || null} alt="" w={56} h={56} radius="sm" fallbackSrc="/favicon.svg" />
                    <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                      {/* The name wraps between words, the count goes below it when both do not fit on
                          a line, and only a word wider than the whole card breaks: a member reads both whole. */}
                      <Group justify="space-between" align="start" gap="xs" style={{ rowGap: 2 }}>
                        <Text fw={600} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
                          {g.name}
                        </Text>
                        <Badge
                          style={{ flexShrink: 0, overflow: 'visible' }}
                          aria-label={`${formatTotal(g.count)} owned`}
                        >
                          ×{formatTotal(g.count)}
                        </Badge>
                      </Group>
                      <ItemDataBadges data={g.metadata} />
                      <ItemDataBadges data={g.variabledata} />
                      <Group gap="xs">
                        <Button size="compact-xs" variant="light" onClick={() => setDetails(g)}>
                          Details
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="light"
                          leftSection={<IconGift size={14} />}
                          onClick={() => setGifting(g)}
                          aria-label={`Gift ${g.name}`}
                        >
                          Gift
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="light"
                          leftSection={<IconTag size={14} />}
                          onClick={() => setSelling(g)}
                          aria-label={`Sell ${g.name}`}
                        >
                          Sell
                        </Button>
                      </Group>
                    </Stack>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
            <Paging
              page={page}
              limit={10}
              total={grouped.data?.total ?? 0}
              totalCapped={grouped.data?.totalCapped ?? false}
              onPage={setPage}
            />
          </>
        )}
      </Stack>
      <Details item={details} onClose={() => setDetails(null)} />
      <GiftItemModal item={gifting} onClose={() => setGifting(null)} />
      <SellItemModal item={selling} onClose={() => setSelling(null)} />
    </Card>
  );
}
