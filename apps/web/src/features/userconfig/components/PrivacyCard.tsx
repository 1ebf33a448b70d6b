/** SPEC §2 Settings: the Private checkbox (isAnonymous) with Update Status. */
import { Button, Card, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

export function PrivacyCard({ isAnonymous }: { isAnonymous: boolean }) {
  const update = useUpdateProfile();
  const [isPrivate, setPrivate] = useState<boolean | null>(null);
  const value = isPrivate ?? isAnonymous;
  const save = async () => {
    try {
      const res = await update.mutateAsync({ isAnonymous: value });
      toastSuccess(res.message);
      setPrivate(null);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Card withBorder radius="md">
      <Stack>
        <Title order={3} size="h4">
          Privacy
        </Title>
        <Text size="sm" c="dimmed">
          A private profile keeps your nickname off public lists such as the leader board.
        </Text>
        <Checkbox label="Private" checked={value} onChange={(e) => setPrivate(e.currentTarget.checked)} />
        <Button w="fit-content" onClick={save} loading={update.isPending}>
          Update Status
        </Button>
      </Stack>
    </Card>
  );
}
