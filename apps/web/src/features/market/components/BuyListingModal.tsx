/**
 * Buying a listing (DESIGN §11.5): the item, its seller and price, "You pay X", the member's available
 * balance of the currency; Buy sends it with an Idempotency-Key kept across retries. A refusal ('This
 * listing has been sold', 'Insufficient funds', 'You cannot buy your own listing') shows in the dialog
 * and keeps it open; success toasts the server's message and closes it.
 */
import { Alert, Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { fromNumeric, type Listing } from '@starlight/shared';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useMe } from '../../../lib/me.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useBuyListing } from '../api/market.ts';

/** `listing`: the one to buy (null: closed). */
export function BuyListingModal({ listing, onClose }: { listing: Listing | null; onClose: () => void }) {
  const buy = useBuyListing();
  const { byId } = useCurrencies();
  const me = useMe();
  const user = useSession((s) => s.user);
  const currency = listing ? byId.get(listing.currencyId) : undefined;
  const held = (me.data ?? user)?.balances.find((b) => b.currencyId === listing?.currencyId)?.amount ?? '0';
  const own = listing !== null && user?.nickname === listing.seller.nickname;
  const short = listing !== null && fromNumeric(held) < fromNumeric(listing.price);
  const fmt = (amount: string) => formatMoneyWithTicker(amount, currency);

  const close = () => {
    buy.reset();
    onClose();
  };

  const submit = async () => {
    if (!listing) return;
    try {
      toastSuccess((await buy.mutateAsync(listing._id)).message);
      close();
    } catch {
      // Shown in the dialog (buy.error).
    }
  };

  return (
    <Modal opened={listing !== null} onClose={close} title="Buy an item" centered>
      {listing && (
        <Stack>
          <Group wrap="nowrap" align="start" gap="sm">
            <Image src={listing.item.imgUrl || null} alt="" w={64} h={64} radius="sm" fallbackSrc="/favicon.svg" />
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'break-word' }}>
                {listing.item.name}
              </Text>
              <Text size="sm" c="dimmed">
                Sold by {listing.seller.nickname}
              </Text>
            </Stack>
          </Group>
          <Text size="lg" fw={700} data-testid="buy-pay">
            You pay {fmt(listing.price)}
          </Text>
          <Text size="sm" c={short ? 'red.4' : 'dimmed'}>
            Available: {fmt(held)}
            {short && ' (not enough to buy it)'}
          </Text>
          {own && (
            <Alert color="yellow" variant="light" p="xs">
              <Text size="sm">This is your own listing: cancel it from My listings instead.</Text>
            </Alert>
          )}
          {buy.isError && (
            <Alert color="red" variant="light" p="xs" role="alert">
              <Text size="sm">{errorMessage(buy.error)}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={buy.isPending} disabled={own} data-autofocus>
              Buy for {fmt(listing.price)}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
