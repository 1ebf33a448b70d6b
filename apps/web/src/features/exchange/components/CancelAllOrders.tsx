/**
 * My orders' "Cancel all" (DESIGN §11.4 cancelAllOrders): a button, disabled with nothing open, and a
 * confirmation naming how many open orders go (waiting stop-limit orders counted) and on which pair (or
 * every pair) before anything moves.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useCancelAllOrders } from '../api/cancel-all-orders.ts';
import { useMyOrdersPage } from '../api/get-my-orders-page.ts';
import { toastServerMessage } from '../utils/messages.ts';

/** How many orders `count` is, in words: `1 open order`, `3 open orders`, `10,000+ open orders`. */
function openOrders(count: number, capped: boolean): string {
  const n = `${count.toLocaleString('en-US')}${capped ? '+' : ''}`;
  return `${n} open order${count === 1 && !capped ? '' : 's'}`;
}

/**
 * `pair`: the pair My orders shows (undefined: every pair), `pairName` its name; `pageSize`: My orders'
 * page size, so the counts share the Open and Stops lists' first pages.
 */
export function CancelAllOrders({
  pair,
  pairName,
  pageSize,
}: {
  pair: string | undefined;
  pairName: string | undefined;
  pageSize: number;
}) {
  const [opened, setOpened] = useState(false);
  const first = { ...(pair ? { pair } : {}), paging: { limit: pageSize, page: 1 } };
  const open = useMyOrdersPage({ state: 1, ...first });
  // Stop-limit orders waiting Untriggered hold escrow too, and go with the open ones.
  const waiting = useMyOrdersPage({ state: 5, ...first });
  const cancelAll = useCancelAllOrders();
  const count = (open.data?.total ?? 0) + (waiting.data?.total ?? 0);
  const what = openOrders(count, (open.data?.totalCapped ?? false) || (waiting.data?.totalCapped ?? false));
  const where = pair ? `on ${pairName ?? 'this pair'}` : 'on every pair';
  const confirm = async () => {
    try {
      toastServerMessage((await cancelAll.mutateAsync(pair ? { pair } : {})).message);
      setOpened(false);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation); the dialog stays for a retry.
    }
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        disabled={count === 0}
        aria-label={count === 0 ? `Cancel all: no open orders ${where}` : `Cancel all ${what} ${where}`}
        onClick={() => setOpened(true)}
      >
        Cancel all
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Cancel all open orders?">
        <Stack gap="sm">
          <Text>
            Cancel {what} {where}? What they still hold in escrow returns to your balance.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Keep them
            </Button>
            <Button color="red" loading={cancelAll.isPending} onClick={() => void confirm()}>
              Cancel {what}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
