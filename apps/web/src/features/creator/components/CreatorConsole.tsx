/**
 * SPEC §2 Creator console (the Creator button on /dashboard, desktop): Collection Control with the
 * Create Collection dialog (Name, Description, Image URL, and the app URLs a consent request may name:
 * redirect URLs, one per line, and a cancel URL; empty fields dropped) and the creator's collections.
 */
import { Button, Card, Code, Group, Modal, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type CreateCollectionRequest, createCollectionRequest } from '@starlight/shared';
import { IconPlus, IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { useCollections } from '../../../lib/collections.ts';
import { errorMessage, fieldErrors } from '../../../lib/errors.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { dropEmpty, schemaValidate } from '../../../lib/form.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useCreateCollection } from '../api/create-collection.ts';

interface Values extends Record<string, unknown> {
  name: string;
  description: string;
  imgUrl: string;
  redirectUrls: string;
  cancelUrl: string;
}

/** The request of the dialog's values: empty fields dropped, redirect URLs one per line. */
export function toCreateCollection(v: Values): CreateCollectionRequest {
  const urls = v.redirectUrls
    .split('\n')
    .map((u) => u.trim())
    .filter(Boolean);
  return dropEmpty({
    name: v.name.trim(),
    description: v.description.trim(),
    imgUrl: v.imgUrl.trim(),
    cancelUrl: v.cancelUrl.trim(),
    ...(urls.length > 0 ? { redirectUrls: urls } : {}),
  }) as CreateCollectionRequest;
}

/** The dialog's fields in words, by their labels (SPEC §5 'Name is required'). */
const words = wordsOf(
  labelWords({
    name: 'Name',
    description: 'Description',
    imgUrl: 'Image URL',
    redirectUrls: 'App redirect URLs',
    cancelUrl: 'App cancel URL',
  }),
);

function CreateCollectionModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateCollection();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { name: '', description: '', imgUrl: '', redirectUrls: '', cancelUrl: '' },
    validate: schemaValidate<Values>(createCollectionRequest, toCreateCollection, words),
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    try {
      toastSuccess((await create.mutateAsync(toCreateCollection(values))).message);
      close();
    } catch (err) {
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors(err)).map(([f, m]) => [f, words(m)])));
      toastError(words(errorMessage(err)));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Create Collection" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <TextInput label="Image URL" placeholder="https://" {...form.getInputProps('imgUrl')} />
          <Textarea
            label="App redirect URLs"
            description="Where members return after authorising your app, one per line; a request must name one exactly"
            autosize
            minRows={2}
            {...form.getInputProps('redirectUrls')}
          />
          <TextInput label="App cancel URL" placeholder="https://" {...form.getInputProps('cancelUrl')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function CreatorConsole() {
  const collections = useCollections();
  const [creating, setCreating] = useState(false);
  const mine = collections.data?.mine ?? [];
  return (
    <Card withBorder radius="md" p="lg" data-testid="creator-console">
      <Group gap="xs" mb="md">
        <IconWand size={24} color="var(--mantine-color-teal-4)" aria-hidden />
        <Title order={2}>Creator Console</Title>
      </Group>
      <Stack gap="sm" component="section" aria-labelledby="collection-control-title">
        <Group justify="space-between">
          <Title order={3} id="collection-control-title">
            Collection Control
          </Title>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            Create Collection
          </Button>
        </Group>
        {collections.isError && <Text c="red.4">{errorMessage(collections.error)}</Text>}
        {mine.length === 0 ? (
          <Text c="dimmed">No Data</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="My collections">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Redirect URLs</Table.Th>
                  <Table.Th>Cancel URL</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {mine.map((c) => (
                  <Table.Tr key={c._id}>
                    <Table.Td fw={500}>{c.name}</Table.Td>
                    <Table.Td>
                      <Code>{c._id}</Code>
                    </Table.Td>
                    <Table.Td>{c.redirectUrls.join(', ') || '—'}</Table.Td>
                    <Table.Td>{c.cancelUrl || '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CreateCollectionModal opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
