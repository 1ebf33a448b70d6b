/** The foot of an admin dialog: the last failure (if any), an optional status line, Cancel and the submit button. */
import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export function DialogFooter({
  failure,
  status,
  onCancel,
  submit,
}: {
  failure: string | null;
  status?: ReactNode;
  onCancel: () => void;
  /** The submit button. */
  submit: ReactNode;
}) {
  const actions = (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      {submit}
    </Group>
  );
  return (
    <>
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
      {status ? (
        <Group justify="space-between" gap="sm">
          {status}
          {actions}
        </Group>
      ) : (
        actions
      )}
    </>
  );
}
