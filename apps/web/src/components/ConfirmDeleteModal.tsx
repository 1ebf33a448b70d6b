/** A confirmation before deleting something: what happens (`children`), Keep it, and a red Delete. */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ConfirmDeleteModal({
  opened,
  title,
  children,
  deleting,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** True while the delete request runs. */
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <Stack gap="sm">
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Keep it
          </Button>
          <Button color="red" loading={deleting} onClick={onConfirm}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
