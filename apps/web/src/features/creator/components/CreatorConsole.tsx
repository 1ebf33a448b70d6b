/**
 * SPEC §2 Creator console (the Creator button on /dashboard): Collection Control with Create Collection,
 * the creator's collections (id, app URLs, Edit for their details and app URLs), and the items of the
 * collection chosen (DESIGN §7: list, create, edit). One dialog at a time.
 */
import { Button, Card, Code, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { OwnCollection } from '@starlight/shared';
import { IconList, IconPencil, IconPlus, IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { useCollections } from '../../../lib/collections.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { CollectionDialog } from './CollectionDialog.tsx';
import { CollectionItems } from './CollectionItems.tsx';

const wrap = { overflowWrap: 'anywhere', minWidth: 0 } as const;

function CollectionCard({
  collection: c,
  chosen,
  onChoose,
  onEdit,
}: {
  collection: OwnCollection;
  chosen: boolean;
  onChoose: () => void;
  onEdit: () => void;
}) {
  return (
    <Card
      withBorder
      radius="sm"
      p="sm"
      component="article"
      aria-label={c.name}
      data-testid="creator-collection"
      style={chosen ? { borderColor: 'var(--mantine-color-teal-6)' } : undefined}
    >
      <Stack gap={6}>
        <Text fw={600} style={wrap}>
          {c.name}
        </Text>
        <Text size="xs" c="dimmed">
          Id <Code>{c._id}</Code>
        </Text>
        <Text size="sm" style={wrap}>
          <Text span c="dimmed" size="sm">
            Redirect URLs:{' '}
          </Text>
          {c.redirectUrls.join(', ') || 'none'}
        </Text>
        <Text size="sm" style={wrap}>
          <Text span c="dimmed" size="sm">
            Cancel URL:{' '}
          </Text>
          {c.cancelUrl || 'none'}
        </Text>
        <Group gap="xs" mt={4}>
          <Button
            size="compact-sm"
            variant={chosen ? 'filled' : 'light'}
            leftSection={<IconList size={14} />}
            onClick={onChoose}
            aria-pressed={chosen}
            aria-label={`Items of ${c.name}`}
          >
            Items
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={onEdit}
            aria-label={`Edit ${c.name}`}
          >
            Edit
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function CreatorConsole() {
  const collections = useCollections();
  // The dialog open: 'new' for Create Collection, a collection to edit, or none.
  const [dialog, setDialog] = useState<OwnCollection | 'new' | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const mine = collections.data?.mine ?? [];
  const chosen = mine.find((c) => c._id === chosenId) ?? mine[0] ?? null;
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="creator-console">
      <Group gap="xs" mb="md">
        <IconWand size={24} color="var(--mantine-color-teal-4)" aria-hidden />
        <Title order={2}>Creator Console</Title>
      </Group>
      <Stack gap="lg">
        <Stack gap="sm" component="section" aria-labelledby="collection-control-title">
          <Group justify="space-between" gap="xs">
            <Title order={3} id="collection-control-title">
              Collection Control
            </Title>
            <Button leftSection={<IconPlus size={18} />} onClick={() => setDialog('new')}>
              Create Collection
            </Button>
          </Group>
          {collections.isError && (
            <Text c="red.4" role="alert">
              {errorMessage(collections.error)}
            </Text>
          )}
          {collections.isPending ? (
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                Loading your collections…
              </Text>
              <Skeleton h={120} />
            </Stack>
          ) : mine.length === 0 ? (
            <Text c="dimmed">No Data</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
              {mine.map((c) => (
                <CollectionCard
                  key={c._id}
                  collection={c}
                  chosen={c._id === chosen?._id}
                  onChoose={() => setChosenId(c._id)}
                  onEdit={() => setDialog(c)}
                />
              ))}
            </SimpleGrid>
          )}
        </Stack>
        {chosen && <CollectionItems key={chosen._id} collection={chosen} />}
      </Stack>
      {dialog !== null && (
        <CollectionDialog
          collection={dialog === 'new' ? null : dialog}
          onClose={() => setDialog(null)}
          onDone={setChosenId}
        />
      )}
    </Card>
  );
}
