/**
 * Settings → Notifications (DESIGN §11.3), anchor `#notifications`: per kind, a switch "also by e-mail";
 * security e-mails always go (shown on and disabled). Save sends the kinds changed and toasts the server's
 * message. Mails need a confirmed e-mail address: without one the card says so.
 */
import { Alert, Button, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { NOTIFICATION_KINDS, type NotificationKind, type User } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notification-settings.ts';

/** Each kind in words, in the order the card lists them. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  transfer_received: 'Transfers received',
  order_filled: 'Orders filled',
  forge_ready: 'Forge processes ready',
  checkout_completed: 'Checkouts completed',
  checkout_refunded: 'Checkouts refunded',
  settlement_settled: 'Settlements settled',
  items_received: 'Items received',
  alert_level: 'Alert level changes',
  broadcast: 'News from Starlight',
  security: 'Security',
};

type Flags = Record<NotificationKind, boolean>;

export function NotificationSettingsCard({ user }: { user: Pick<User, 'email' | 'isEmailVerified'> }) {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const [flags, setFlags] = useState<Flags | null>(null);
  const stored = settings.data?.settings.email;
  useEffect(() => {
    if (stored) setFlags(stored);
  }, [stored]);
  const canMail = Boolean(user.email) && user.isEmailVerified;
  const changed = stored && flags ? NOTIFICATION_KINDS.filter((k) => k !== 'security' && flags[k] !== stored[k]) : [];

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!flags) return;
    try {
      const email = Object.fromEntries(changed.map((k) => [k, flags[k]]));
      toastSuccess((await save.mutateAsync({ email })).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="notifications-title" id="notifications">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={3} size="h4" id="notifications-title">
            Notifications
          </Title>
          <Text size="sm" c="dimmed">
            Every notification shows under the bell. Choose which should also reach you by e-mail.
          </Text>
          {!canMail && (
            <Alert color="yellow" title="E-mails need a confirmed address">
              Add and confirm an e-mail address in your account above to receive notifications by e-mail.
            </Alert>
          )}
          {settings.isPending || !flags ? (
            settings.isError ? (
              <Text size="sm" c="red" role="alert">
                {errorMessage(settings.error)}
              </Text>
            ) : (
              <Loader size="sm" aria-label="Loading notification settings" />
            )
          ) : (
            <Stack gap="sm" role="group" aria-label="Also by e-mail">
              {NOTIFICATION_KINDS.map((k) =>
                k === 'security' ? (
                  <Switch
                    key={k}
                    checked
                    disabled
                    label={`${KIND_LABELS[k]}: also by e-mail`}
                    description="Security e-mails always go, so you hear at once of a sign-in or change you did not make."
                  />
                ) : (
                  <Switch
                    key={k}
                    checked={flags[k]}
                    label={`${KIND_LABELS[k]}: also by e-mail`}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setFlags((f) => (f ? { ...f, [k]: on } : f));
                    }}
                  />
                ),
              )}
            </Stack>
          )}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={changed.length === 0}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
