/**
 * My listings (DESIGN §11.5): the member's listings in every state, newest first, 10 a page: the item,
 * a state badge, the price, what the seller receives after the collection's royalty, the buyer once sold,
 * and Cancel for an open one behind a confirmation.
 */
import { Alert, Badge, Button, Card, Group, Image, Modal, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { Listing, ListingState } from '@starlight/shared';
import { useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { fractionToPercent } from '../../../lib/percent.ts';
import { useCancelListing, useMyListings } from '../api/market.ts';

const LIMIT = 10;
const STATE_COLOR: Record<ListingState, string> = { open: 'blue', sold: 'green', cancelled: 'gray' };
const STATE_WORD: Record<ListingState, string> = { open: 'Open', sold: 'Sold', cancelled: 'Cancelled' };

function CancelDialog({ listing, onClose }: { listing: Listing | null; onClose: () => void }) {
  const cancel = useCancelListing();
  const close = () => {
    cancel.reset();
    onClose();
  };
  const submit = async () => {
    if (!listing) return;
    try {
      toastSuccess((await cancel.mutateAsync(listing._id)).message);
      close();
    } catch {
      // Shown in the dialog (cancel.error).
    }
  };
  return (
    <Modal opened={listing !== null} onClose={close} title="Cancel the listing?" centered>
      {listing && (
        <Stack>
          <Text>{listing.item.name} leaves the market and is yours to use, gift or list again.</Text>
          {cancel.isError && (
            <Alert color="red" variant="light" p="xs" role="alert">
              <Text size="sm">{errorMessage(cancel.error)}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              Keep it listed
            </Button>
            <Button color="red" onClick={() => void submit()} loading={cancel.isPending}>
              Cancel listing
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export function MyListings() {
  const [page, setPage] = useState(1);
  const [cancelling, setCancelling] = useState<Listing | null>(null);
  const mine = useMyListings({ paging: { limit: LIMIT, page } });
  const { byId } = useCurrencies();
  const rows = mine.data?.listings ?? [];
  const fmt = (amount: string, id: number) => formatMoneyWithTicker(amount, byId.get(id));

  if (mine.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(mine.error)}
      </Alert>
    );
  if (mine.isLoading) return <Skeleton h={160} />;
  if (rows.length === 0)
    return <Text c="dimmed">You have no listings yet. Sell an item from Game Items on your bank page.</Text>;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {rows.map((l) => (
          <Card key={l._id} withBorder radius="sm" p="sm" data-testid="my-listing" aria-label={l.item.name}>
            <Group wrap="nowrap" align="start" gap="sm">
              <Image src={l.item.imgUrl || null} alt="" w={56} h={56} radius="sm" fallbackSrc="/favicon.svg" />
              <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Group justify="space-between" gap="xs" align="start">
                  <Text fw={600} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
                    {l.item.name}
                  </Text>
                  <Badge variant="light" color={STATE_COLOR[l.state]} style={{ flexShrink: 0 }}>
                    {STATE_WORD[l.state]}
                  </Badge>
                </Group>
                <Text size="sm">Price: {fmt(l.price, l.currencyId)}</Text>
                <Text size="sm" c="dimmed">
                  {l.state === 'sold' ? 'You received' : 'You receive'} {fmt(l.sellerReceives, l.currencyId)} after the
                  collection's {fractionToPercent(l.royalty)}% royalty
                </Text>
                {l.state === 'sold' && (
                  <Text size="sm">
                    Bought by {l.buyer?.nickname ?? 'a member'}
                    {l.soldAt && ` on ${new Date(l.soldAt).toLocaleString('en-GB')}`}
                  </Text>
                )}
                {l.state === 'open' && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    style={{ alignSelf: 'start' }}
                    onClick={() => setCancelling(l)}
                    aria-label={`Cancel listing of ${l.item.name}`}
                  >
                    Cancel
                  </Button>
                )}
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <Paging
        page={page}
        limit={LIMIT}
        total={mine.data?.total ?? 0}
        totalCapped={mine.data?.totalCapped ?? false}
        onPage={setPage}
      />
      <CancelDialog listing={cancelling} onClose={() => setCancelling(null)} />
    </Stack>
  );
}
