/**
 * Browse of the marketplace (DESIGN §11.5): open listings filtered by collection, name (its start) and
 * currency, newest first or lowest price first, 12 a page. Each card: the item's image and name, the price
 * with the currency's ticker at its precision, the seller and Buy (signed-in members). "By item" groups
 * every open listing by name and currency on the server (`ItemGroups`, by collection, name and currency; the
 * sort does not apply there); choosing a group lists all of that name, lowest price first.
 */
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Image,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Listing } from '@starlight/shared';
import { IconSearch } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { Paging } from '../../../components/Paging.tsx';
import { useCollections } from '../../../lib/collections.ts';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useSession } from '../../../lib/session.ts';
import { useListings } from '../api/market.ts';
import { BuyListingModal } from './BuyListingModal.tsx';
import { ItemGroups } from './ItemGroups.tsx';

const LIMIT = 12;

export function BrowseListings() {
  const user = useSession((s) => s.user);
  const collections = useCollections();
  const { data: currencies = [], byId } = useCurrencies();
  const [collection, setCollection] = useState<string | null>(null);
  const [currencyId, setCurrencyId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [sort, setSort] = useState<'newest' | 'price'>('newest');
  const [view, setView] = useState<'listings' | 'items'>('listings');
  const [page, setPage] = useState(1);
  const [buying, setBuying] = useState<Listing | null>(null);
  const [debouncedName] = useDebouncedValue(name.trim(), 300);
  const listings = useListings(
    view === 'listings'
      ? {
          paging: { limit: LIMIT, page },
          ...(collection ? { itemCollectionId: collection } : {}),
          ...(debouncedName ? { name: debouncedName } : {}),
          ...(currencyId ? { currencyId: Number(currencyId) } : {}),
          sort,
        }
      : null,
  );
  const rows = listings.data?.listings ?? [];
  const filtered = Boolean(collection || currencyId || debouncedName);
  const fmt = (amount: string, id: number) => formatMoneyWithTicker(amount, byId.get(id));
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <Select
          label="Collection"
          placeholder="All collections"
          clearable
          searchable
          data={(collections.data?.data ?? []).map((c) => ({ value: c._id, label: c.name }))}
          value={collection}
          onChange={reset(setCollection)}
        />
        <TextInput
          label="Name starts with"
          placeholder="Any name"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={name}
          onChange={(e) => reset(setName)(e.currentTarget.value)}
          maxLength={127}
        />
        <Select
          label="Currency"
          placeholder="All currencies"
          clearable
          data={currencies.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }))}
          value={currencyId}
          onChange={reset(setCurrencyId)}
        />
        <Select
          label="Sort"
          allowDeselect={false}
          data={[
            { value: 'newest', label: 'Newest first' },
            { value: 'price', label: 'Lowest price first' },
          ]}
          value={sort}
          onChange={(v) => reset(setSort)(v === 'price' ? 'price' : 'newest')}
          disabled={view === 'items'}
        />
      </SimpleGrid>
      <SegmentedControl
        aria-label="View"
        value={view}
        onChange={(v) => setView(v === 'items' ? 'items' : 'listings')}
        data={[
          { value: 'listings', label: 'Listings' },
          { value: 'items', label: 'By item' },
        ]}
        style={{ alignSelf: 'start' }}
      />
      {view === 'items' ? (
        <ItemGroups
          collection={collection}
          name={debouncedName}
          currencyId={currencyId}
          onPick={(picked, pickedCurrency) => {
            setName(picked);
            setCurrencyId(String(pickedCurrency));
            setSort('price');
            setView('listings');
            setPage(1);
          }}
        />
      ) : listings.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(listings.error)}
        </Alert>
      ) : listings.isLoading ? (
        <Skeleton h={160} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" data-testid="market-empty">
          {filtered ? 'No open listings match these filters.' : 'Nothing is for sale yet.'}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {rows.map((l) => (
            <Card key={l._id} withBorder radius="sm" p="sm" data-testid="listing-card" aria-label={l.item.name}>
              <Group wrap="nowrap" align="start" gap="sm">
                <Image src={l.item.imgUrl || null} alt="" w={64} h={64} radius="sm" fallbackSrc="/favicon.svg" />
                <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                  <Text fw={600} style={{ overflowWrap: 'break-word' }}>
                    {l.item.name}
                  </Text>
                  <Text fw={700} data-testid="listing-price">
                    {fmt(l.price, l.currencyId)}
                  </Text>
                  <Text size="sm" c="dimmed">
                    Seller: {l.seller.nickname}
                  </Text>
                  {user ? (
                    <Button
                      size="compact-sm"
                      style={{ alignSelf: 'start' }}
                      onClick={() => setBuying(l)}
                      aria-label={`Buy ${l.item.name} for ${fmt(l.price, l.currencyId)}`}
                    >
                      Buy
                    </Button>
                  ) : (
                    <Anchor component={Link} to="/login" size="sm">
                      Log in to buy
                    </Anchor>
                  )}
                </Stack>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {view === 'listings' && rows.length > 0 && (
        <Paging
          page={page}
          limit={LIMIT}
          total={listings.data?.total ?? 0}
          totalCapped={listings.data?.totalCapped ?? false}
          onPage={setPage}
        />
      )}
      <BuyListingModal listing={buying} onClose={() => setBuying(null)} />
    </Stack>
  );
}
