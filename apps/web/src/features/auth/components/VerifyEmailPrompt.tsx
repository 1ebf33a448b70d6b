/**
 * SPEC §4: the verify-e-mail popup, opened by the shell at most once per 24 hours for a member whose
 * e-mail is unverified. Send mails the link; Later (or Escape) puts it off (opening it already did, for
 * 24 hours). A non-modal card in the corner rather than a modal dialog: it asks without blocking the
 * page, and its first paint needs no overlay, focus trap or scroll lock.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSendVerificationEmail } from '../../../lib/send-verification-email.ts';
import { useSession } from '../../../lib/session.ts';
import { postponeVerifyReminder } from '../verify-reminder.ts';
import classes from './verify-prompt.module.css';

export function VerifyEmailPrompt() {
  const email = useSession((s) => s.user?.email);
  const send = useSendVerificationEmail();
  const [opened, setOpened] = useState(true);
  const titleId = useId();
  useEffect(() => postponeVerifyReminder(Date.now()), []);
  useEffect(() => {
    if (!opened) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpened(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opened]);
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
    <Paper role="dialog" aria-labelledby={titleId} withBorder shadow="lg" radius="md" p="md" className={classes.prompt}>
      <Text fw={700} id={titleId} mb={6}>
        Verify your e-mail
      </Text>
      <Text size="sm">
        Please confirm that <b>{email}</b> is yours: we will mail you a link that works for 24 hours.
      </Text>
      <Group justify="flex-end" mt="md" gap="xs">
        <Button variant="default" size="xs" onClick={() => setOpened(false)}>
          Later
        </Button>
        <Button size="xs" onClick={sendLink} loading={send.isPending}>
          Send verification e-mail
        </Button>
      </Group>
    </Paper>
  );
}
