/**
 * SPEC §4: the verify-e-mail popup, opened by the shell at most once per 24 hours for a member whose
 * e-mail is unverified. Send mails the link; Later puts it off (opening it already did, for 24 hours).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSendVerificationEmail } from '../../../lib/send-verification-email.ts';
import { useSession } from '../../../lib/session.ts';
import { postponeVerifyReminder } from '../verify-reminder.ts';

export function VerifyEmailPrompt() {
  const email = useSession((s) => s.user?.email);
  const send = useSendVerificationEmail();
  const [opened, setOpened] = useState(true);
  useEffect(() => postponeVerifyReminder(Date.now()), []);

  const sendLink = async () => {
    try {
      toastSuccess((await send.mutateAsync()).message);
      setOpened(false);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Modal opened={opened} onClose={() => setOpened(false)} title="Verify your e-mail" centered>
      <Stack>
        <Text size="sm">
          Please confirm that <b>{email}</b> is yours: we will mail you a link that works for 24 hours.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpened(false)}>
            Later
          </Button>
          <Button onClick={sendLink} loading={send.isPending}>
            Send verification e-mail
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
