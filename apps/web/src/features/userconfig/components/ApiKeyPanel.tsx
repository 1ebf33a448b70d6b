/**
 * SPEC §2 Settings: the API key panel, on the key named Default (DESIGN §11.2), which the API keys list
 * shows too. The key is masked until Show; Copy puts it on the clipboard;
 * Get Key fetches it again and says what it found (for a member without one: 'You have no key yet:
 * press New Key', which the panel also says under 'No Key'); New Key makes one, replacing the old one
 * if any (the server's message says which); Disable removes it. With two-factor authentication on, New
 * Key first asks for a code in a dialog (DESIGN §11.1 step-up).
 */
import { Button, Card, Code, CopyButton, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconEye, IconEyeOff, IconKey, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { StepUpCodeField } from '../../../components/StepUpCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastInfo, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useDisableApiKey } from '../api/disable-api-key.ts';
import { useApiKey } from '../api/get-api-key.ts';
import { useNewApiKey } from '../api/new-api-key.ts';

/** What Get Key and the panel say to a member without a key. */
export const NO_KEY_YET = 'You have no key yet: press New Key';

/** The key with all but its prefix hidden. */
function masked(key: string): string {
  return `${key.slice(0, 3)}${'•'.repeat(24)}`;
}

export function ApiKeyPanel() {
  const current = useApiKey();
  const renew = useNewApiKey();
  const disable = useDisableApiKey();
  const [shown, setShown] = useState(false);
  const stepUp = useSession((s) => s.user?.mfa?.totp ?? false);
  const [asking, setAsking] = useState(false);
  const [mfaCode, setMfaCode] = useState('');
  const key = current.data?.apiKey ?? null;

  const getKey = async () => {
    const res = await current.refetch();
    if (res.isError) toastError(errorMessage(res.error));
    else if ((res.data?.apiKey ?? null) === null) toastInfo(NO_KEY_YET);
    else toastSuccess('Your API key is loaded');
  };

  const run = async (action: () => Promise<{ message: string }>) => {
    try {
      toastSuccess((await action()).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="default-api-key-title">
      <Stack>
        <Title order={3} size="h4" id="default-api-key-title">
          Default API key
        </Title>
        <Text size="sm" c="dimmed">
          Programs can call the Starlight API as you with this key in an <Code>x-api-key</Code> header. Keep it secret:
          anyone holding it can move your funds. It never works on admin routes.
        </Text>
        <Code block data-testid="api-key" aria-label="API key" style={{ overflowWrap: 'anywhere' }}>
          {current.isPending ? 'Loading…' : key === null ? 'No Key' : shown ? key : masked(key)}
        </Code>
        {!current.isPending && key === null && (
          <Text size="sm" c="dimmed">
            {NO_KEY_YET} to make one.
          </Text>
        )}
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            loading={current.isFetching}
            onClick={() => void getKey()}
          >
            Get Key
          </Button>
          <Button
            variant="default"
            size="xs"
            leftSection={shown ? <IconEyeOff size={14} /> : <IconEye size={14} />}
            disabled={key === null}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? 'Hide' : 'Show'}
          </Button>
          <CopyButton value={key ?? ''}>
            {({ copy }) => (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconCopy size={14} />}
                disabled={key === null}
                onClick={() => {
                  copy();
                  toastSuccess('API key copied to clipboard');
                }}
              >
                Copy
              </Button>
            )}
          </CopyButton>
          <Button
            size="xs"
            leftSection={<IconKey size={14} />}
            loading={renew.isPending}
            onClick={() => (stepUp ? setAsking(true) : void run(() => renew.mutateAsync({})))}
          >
            New Key
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} />}
            disabled={key === null}
            loading={disable.isPending}
            onClick={() => void run(() => disable.mutateAsync())}
          >
            Disable
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={asking}
        onClose={() => {
          setAsking(false);
          setMfaCode('');
        }}
        title="New API key"
        centered
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const res = await renew.mutateAsync({ mfaCode: mfaCode.trim() });
              setAsking(false);
              setMfaCode('');
              return res;
            });
          }}
        >
          <Stack>
            <Text size="sm">Making a new key replaces the old one. Confirm with your two-factor code.</Text>
            <StepUpCodeField data-autofocus value={mfaCode} onChange={(e) => setMfaCode(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={renew.isPending} disabled={mfaCode.trim().length < 6}>
                Make new key
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
