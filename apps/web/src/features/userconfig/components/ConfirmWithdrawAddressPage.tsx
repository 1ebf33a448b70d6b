/**
 * /withdrawaddress/{token} (DESIGN §11.2): the mailed link that confirms a withdrawal address. It confirms
 * as the page opens (once: the token is single use) and says from when the address can be used, or why the
 * link did not work, with a way to the member's withdrawal addresses in Settings. No session is needed.
 */
import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { confirmWithdrawAddressRequest, formatDate } from '@starlight/shared';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { isAhead } from '../../../lib/withdraw-addresses.ts';
import { useConfirmWithdrawAddress } from '../api/withdraw-addresses.ts';

/** What a member reads for a link whose token is not even well formed. */
export const BAD_ADDRESS_LINK = 'This confirmation link is invalid or has already been used.';

export function ConfirmWithdrawAddressPage() {
  const { token = '' } = useParams({ strict: false }) as { token?: string };
  const wellFormed = confirmWithdrawAddressRequest.safeParse({ token }).success;
  const confirm = useConfirmWithdrawAddress();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !wellFormed) return;
    asked.current = true;
    confirm.mutate({ token });
  }, [token, wellFormed, confirm]);

  const address = confirm.data?.address;
  const failed = !wellFormed || confirm.isError;
  const from = address?.activeFrom ?? null;
  const usableNow = address?.state === 'active' || (from !== null && !isAhead(from));

  return (
    <Center mih="60vh">
      <Card withBorder radius="md" p="xl" w="100%" maw={520}>
        <Stack>
          <Title order={2}>Confirm withdrawal address</Title>
          {address && (
            <Alert color="teal" title="Address confirmed" icon={<IconCircleCheck />} role="status">
              <Text size="sm">{confirm.data?.message}</Text>
              <Text size="sm" mt="xs" style={{ overflowWrap: 'anywhere' }}>
                <b>{address.label}</b>: {address.walletAddress}
              </Text>
              <Text size="sm" mt="xs" data-testid="usable-from">
                {usableNow
                  ? 'You can withdraw to it now.'
                  : from
                    ? `You can withdraw to it from ${formatDate(from)}.`
                    : 'Your withdrawal addresses in Settings show from when you can withdraw to it.'}
              </Text>
            </Alert>
          )}
          {failed && (
            <Alert color="red" title="Address not confirmed" icon={<IconCircleX />} role="alert">
              <Text size="sm">{wellFormed ? errorMessage(confirm.error) : BAD_ADDRESS_LINK}</Text>
              <Text size="sm" mt="xs">
                Add the address again in Settings to get a new link.
              </Text>
            </Alert>
          )}
          {!address && !failed && (
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Checking your link…</Text>
            </Group>
          )}
          {(address || failed) && (
            <Button component={Link} to="/userconfig" hash="withdrawal-addresses">
              Go to my withdrawal addresses
            </Button>
          )}
        </Stack>
      </Card>
    </Center>
  );
}
