/**
 * The items of one of the creator's collections (DESIGN §7 `getItems`, newest first, 10 a page from the
 * server): each with its image, name, owner, description and metadata and an Edit button; Create Item;
 * a loading state, the failure in words with Retry, and an empty state that offers the first item.
 */
import { Alert, Button, Card, Group, Image, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { Item, OwnCollection } from '@starlight/shared';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ItemDataBadges } from '../../../components/ItemDataBadges.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useCollectionItems } from '../api/collection-items.ts';
import { ItemDialog } from './ItemDialog.tsx';

const LIMIT = 10;
const wrap = { overflowWrap: 'anywhere', minWidth: 0 } as const;

function ItemCard({ item, onEdit }: { item: Item; onEdit: () => void }) {
  return (
    <Card withBorder radius="sm" p="sm" component="article" aria-label={item.name} data-testid="creator-item">
      <Group wrap="nowrap" align="start" gap="sm">
        <Image src={item.imgUrl || null} alt="" w={56} h={56} radius="sm" fallbackSrc="/favicon.svg" />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" align="start" wrap="nowrap" gap="xs">
            <Text fw={600} style={wrap}>
              {item.name}
            </Text>
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconPencil size={14} />}
              onClick={onEdit}
              aria-label={`Edit ${item.name}`}
              style={{ flexShrink: 0 }}
            >
              Edit
            </Button>
          </Group>
          <Text size="xs" c="dimmed" style={wrap}>
            Owner {item.owner.nickname} · {new Date(item.createdAt).toLocaleDateString('en-GB')}
          </Text>
          {item.description && (
            <Text size="sm" style={wrap}>
              {item.description}
            </Text>
          )}
          <ItemDataBadges data={item.metadata} />
        </Stack>
      </Group>
    </Card>
  );
}

export function CollectionItems({ collection }: { collection: OwnCollection }) {
  const [page, setPage] = useState(1);
  // The dialog open: 'new' for Create Item, an item to edit, or none.
  const [dialog, setDialog] = useState<Item | 'new' | null>(null);
  const items = useCollectionItems({ itemCollection: collection._id, paging: { limit: LIMIT, page } });
  const list = items.data?.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="collection-items-title">
      <Group justify="space-between" gap="xs">
        <Title order={3} id="collection-items-title" style={wrap}>
          Items of {collection.name}
        </Title>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setDialog('new')}>
          Create Item
        </Button>
      </Group>
      {items.isError ? (
        <Alert color="red" variant="light" role="alert" title="The items could not be loaded">
          <Stack gap="xs" align="start">
            <Text size="sm">{errorMessage(items.error)}</Text>
            <Button size="xs" variant="default" onClick={() => items.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : items.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <Text size="sm" c="dimmed">
            Loading items…
          </Text>
          <Skeleton h={72} />
          <Skeleton h={72} />
          <Skeleton h={72} />
        </Stack>
      ) : list.length === 0 ? (
        <Card withBorder radius="sm" p="lg">
          <Stack gap="sm" align="center">
            <Text c="dimmed" ta="center">
              No items yet — create the first
            </Text>
            <Button variant="light" leftSection={<IconPlus size={18} />} onClick={() => setDialog('new')}>
              Create the first item
            </Button>
          </Stack>
        </Card>
      ) : (
        <>
          <Stack gap="sm">
            {list.map((item) => (
              <ItemCard key={item._id} item={item} onEdit={() => setDialog(item)} />
            ))}
          </Stack>
          {(items.data?.total ?? 0) > LIMIT && (
            <Paging
              page={page}
              limit={LIMIT}
              total={items.data?.total ?? 0}
              totalCapped={items.data?.totalCapped ?? false}
              onPage={setPage}
            />
          )}
        </>
      )}
      {dialog !== null && (
        <ItemDialog
          collectionId={collection._id}
          item={dialog === 'new' ? null : dialog}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
