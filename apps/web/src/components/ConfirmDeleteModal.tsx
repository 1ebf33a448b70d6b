/**
 * A confirmation before deleting something: what happens (`children`, long words wrapped), Keep it, and a red
 * button (`confirmLabel`, Delete unless named: Revoke, Remove).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function ConfirmDeleteModal({
  opened,
  title,
  children,
  deleting,
  confirmLabel = 'Delete',
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** True while the delete request runs. */
  deleting: boolean;
  confirmLabel?: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Stack gap="sm">
        <Text style={{ overflowWrap: 'anywhere' }}>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Keep it
          </Button>
          <Button color="red" loading={deleting} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
