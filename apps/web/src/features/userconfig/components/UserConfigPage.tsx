/** SPEC §2 Settings (/userconfig): the Private checkbox (isAnonymous) with Update Status. */
import { Button, Card, Checkbox, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

export function UserConfigPage() {
  const user = useRequireSession();
  const update = useUpdateProfile();
  const [isPrivate, setPrivate] = useState<boolean | null>(null);
  if (!user) return <Loader m="xl" />;
  const value = isPrivate ?? user.isAnonymous;
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
    <Stack maw={640} mx="auto">
      <Title order={2}>Settings</Title>
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
      <Card withBorder radius="md">
        <Title order={3} size="h4">
          Password, API key and wallet
        </Title>
        <Text size="sm" c="dimmed" mt="xs">
          Changing your password, nickname or e-mail and managing API keys are coming soon.
        </Text>
      </Card>
    </Stack>
  );
}
