/**
 * Admin Console → User Control → Withdrawal addresses (DESIGN §11.2): a member's saved addresses with their
 * states, whether "Allowed addresses only" is on (or until when it stays on), and a running security hold.
 * Read-only: only the member changes them.
 */
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatDate } from '@starlight/shared';
import { useState } from 'react';
import { WithdrawAddressList } from '../../../components/WithdrawAddressList.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { isTurningOff, pausedUntil } from '../../../lib/withdraw-addresses.ts';
import { useUserWithdrawAddresses } from '../api/user-withdraw-addresses.ts';
import { NicknameLookup } from './NicknameLookup.tsx';

export function UserWithdrawAddressesPanel() {
  const [nickname, setNickname] = useState('');
  const list = useUserWithdrawAddresses(nickname);
  const { byId } = useCurrencies();

  return (
    <Card
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      component="section"
      aria-labelledby="user-withdraw-addresses-title"
    >
      <Stack>
        <div>
          <Title order={3} id="user-withdraw-addresses-title">
            Withdrawal addresses
          </Title>
          <Text size="sm" c="dimmed">
            A member's saved withdrawal addresses and their "Allowed addresses only" switch. Only the member can change
            them.
          </Text>
        </div>
        <NicknameLookup action="Show addresses" onLookup={setNickname} />
        {nickname === '' ? null : list.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : list.isError ? (
          <Text size="sm" c="red" role="alert">
            {errorMessage(list.error)}
          </Text>
        ) : (
          <>
            <Text size="sm" data-testid="user-withdraw-addresses-message">
              {list.data.message}
            </Text>
            <Group gap="xs" data-testid="user-allow-list">
              <Text size="sm">Allowed addresses only:</Text>
              {isTurningOff(list.data) && list.data.allowListOffFrom ? (
                <Badge color="orange" variant="light" style={{ textTransform: 'none' }}>
                  On until {formatDate(list.data.allowListOffFrom)}
                </Badge>
              ) : list.data.allowListOnly ? (
                <Badge color="teal" variant="light">
                  On
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  Off
                </Badge>
              )}
            </Group>
            {pausedUntil(list.data) && (
              <Text size="sm" c="orange">
                Withdrawals paused until {formatDate(list.data.withdrawalsPausedUntil ?? '')} after a security change.
              </Text>
            )}
            {list.data.addresses.length === 0 ? (
              <Text size="sm" c="dimmed">
                No saved addresses.
              </Text>
            ) : (
              <WithdrawAddressList
                addresses={list.data.addresses}
                label={`${nickname}'s withdrawal addresses`}
                tickerOf={(id) => byId.get(id)?.ticker ?? `#${id}`}
              />
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
