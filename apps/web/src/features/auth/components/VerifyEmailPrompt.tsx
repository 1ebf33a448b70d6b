/**
 * SPEC §4: the verify-e-mail reminder, shown by the shell at most once per 24 hours for a member whose
 * e-mail is unverified. Send mails the link; Later puts it off (showing it already did, for 24 hours).
 * A banner in the page's flow, above the page's content, rather than a card fixed over a
 * corner: it never lies over a control (the open phone menu, a forge recipe's Start button) and needs
 * no overlay, focus trap or scroll lock. A labelled region, so a screen reader can find it.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSendVerificationEmail } from '../../../lib/send-verification-email.ts';
import { useSession } from '../../../lib/session.ts';
import { postponeVerifyReminder } from '../utils/verify-reminder.ts';

export function VerifyEmailPrompt() {
  const email = useSession((s) => s.user?.email);
  const send = useSendVerificationEmail();
  const [opened, setOpened] = useState(true);
  const titleId = useId();
  useEffect(() => postponeVerifyReminder(Date.now()), []);
  if (!opened) return null;

  const sendLink = async () => {
    try {
      toastSuccess((await send.mutateAsync()).message);
      setOpened(false);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="md" mb="md">
      <Text fw={700} id={titleId} mb={4}>
        Verify your e-mail
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Please confirm that <b>{email}</b> is yours: we will mail you a link that works for 24 hours.
      </Text>
      {/* The buttons under the words, on the left: the top-right corner is where a toast appears. */}
      <Group mt="sm" gap="xs">
        <Button size="xs" onClick={sendLink} loading={send.isPending}>
          Send verification e-mail
        </Button>
        <Button variant="default" size="xs" onClick={() => setOpened(false)}>
          Later
        </Button>
      </Group>
    </Paper>
  );
}
