/**
 * Admin Console, Defcon Level → Broadcast (DESIGN §11.3): a notification to every member or every member of
 * one role (title, body, optional link: a path of this site or an https URL), and the broadcasts sent,
 * newest first, a page at a time. The server's message is toasted; its field errors show by their fields.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { formatDate, NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX, ROLES } from '@starlight/shared';
import { useState } from 'react';
import { Paging } from '../../../components/Paging.tsx';
import { errorMessage, fieldErrors } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useBroadcasts, useSendBroadcast } from '../api/broadcasts.ts';

const AUDIENCES = [{ value: '', label: 'Everyone' }, ...ROLES.map((r) => ({ value: r, label: `Every ${r}` }))];
const EMPTY = { title: '', body: '', link: '', role: '' };
const LIMIT = 5;

function SentBroadcasts() {
  const [page, setPage] = useState(1);
  const list = useBroadcasts(page, LIMIT);
  if (list.isPending) return <Loader size="sm" aria-label="Loading broadcasts" />;
  if (list.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {errorMessage(list.error)}
      </Text>
    );
  if (list.data.total === 0)
    return (
      <Text size="sm" c="dimmed">
        No broadcasts sent yet.
      </Text>
    );
  return (
    <Stack gap="sm">
      <Stack gap="xs" role="list" aria-label="Broadcasts sent">
        {list.data.broadcasts.map((b) => (
          <Card key={b._id} withBorder radius="sm" p="sm" role="listitem">
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Text fw={600} size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {b.title}
              </Text>
              <Badge variant="light" style={{ flexShrink: 0 }}>
                {b.role ? `Every ${b.role}` : 'Everyone'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {b.body}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDate(b.createdAt, true)} UTC
              {b.link ? ` · ${b.link}` : ''}
            </Text>
          </Card>
        ))}
      </Stack>
      <Paging page={page} limit={LIMIT} total={list.data.total} onPage={setPage} />
    </Stack>
  );
}

export function BroadcastCard() {
  const send = useSendBroadcast();
  const [v, setV] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (k: keyof typeof EMPTY) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setV((cur) => ({ ...cur, [k]: value }));
    setErrors((cur) => ({ ...cur, [k]: '' }));
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    setErrors({});
    try {
      const link = v.link.trim();
      const res = await send.mutateAsync({
        title: v.title,
        body: v.body,
        ...(link ? { link } : {}),
        ...(v.role ? { role: v.role as (typeof ROLES)[number] } : {}),
      });
      toastSuccess(res.message);
      setV(EMPTY);
    } catch (err) {
      const message = errorMessage(err);
      setErrors(fieldErrors(err));
      setFailure(message);
      toastError(message);
    }
  };
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="broadcast-title">
      <Stack>
        <form onSubmit={submit} noValidate>
          <Stack maw={520}>
            <Title order={3} id="broadcast-title">
              Broadcast
            </Title>
            <Text size="sm" c="dimmed">
              A notification under every member's bell (or every member of one role), shown live to those online.
            </Text>
            {failure && (
              <Alert color="red" title="Not sent" role="alert">
                {failure}
              </Alert>
            )}
            <TextInput
              label="Title"
              required
              maxLength={NOTIFICATION_TITLE_MAX}
              value={v.title}
              onChange={set('title')}
              error={errors.title || undefined}
            />
            <Textarea
              label="Body"
              required
              autosize
              minRows={2}
              maxLength={NOTIFICATION_BODY_MAX}
              value={v.body}
              onChange={set('body')}
              error={errors.body || undefined}
            />
            <TextInput
              label="Link"
              description="Optional: a page of this site (/userbank?tab=bank) or an https address"
              value={v.link}
              onChange={set('link')}
              error={errors.link || undefined}
            />
            <NativeSelect label="To" data={AUDIENCES} value={v.role} onChange={set('role')} />
            <Button type="submit" w="fit-content" loading={send.isPending}>
              Send broadcast
            </Button>
          </Stack>
        </form>
        <Title order={4}>Sent</Title>
        <SentBroadcasts />
      </Stack>
    </Card>
  );
}
