/**
 * SPEC §2 Quantum Hub (exchange): pair selector, price and depth charts, the order book (orders and
 * price levels), the create-order form, recent trades and my orders. Everything on the page follows the
 * live feed (hooks/use-exchange-socket.ts). Desktop: two columns; phone: stacked sections.
 */
import { Alert, Badge, Card, Grid, Group, Select, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Pair } from '@starlight/shared';
import { IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { PanelSkeleton } from '../../../components/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useMe } from '../../../lib/me.ts';
import { useSession } from '../../../lib/session.ts';
import { usePairs } from '../api/get-pairs.ts';
import { type LiveStatus, useExchangeSocket } from '../hooks/use-exchange-socket.ts';
import { type PairView, usePairView } from '../hooks/use-pair-view.ts';
import { MyOrders } from './MyOrders.tsx';
import { OrderBook } from './OrderBook.tsx';
import { OrderForm } from './OrderForm.tsx';
import { RecentTrades } from './RecentTrades.tsx';

// The charts' libraries (lightweight-charts, recharts) load after the page shows its frame, form and
// book: their panels are skeletons meanwhile.
const PriceChart = lazy(() => import('./PriceChart.tsx').then((m) => ({ default: m.PriceChart })));
const DepthChart = lazy(() => import('./DepthChart.tsx').then((m) => ({ default: m.DepthChart })));

const PAIR_KEY = 'quantumhubPair';

const STATUS: Record<LiveStatus, { color: string; label: string }> = {
  live: { color: 'teal', label: 'Live' },
  connecting: { color: 'yellow', label: 'Connecting' },
  offline: { color: 'red', label: 'Reconnecting' },
};

/** The selected pair: the one last chosen if it still exists, else the first. */
function useSelectedPair(pairs: Pair[] | undefined) {
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(PAIR_KEY));
  const selected = pairs?.find((p) => p._id === chosen) ?? pairs?.[0];
  const choose = (id: string | null) => {
    if (id) localStorage.setItem(PAIR_KEY, id);
    setChosen(id);
  };
  return { selected, choose };
}

function Balances({ view }: { view: PairView }) {
  const user = useSession((s) => s.user);
  const me = useMe();
  if (!user) return null;
  const balances = (me.data ?? user).balances;
  const of = (id: number) => balances.find((b) => b.currencyId === id)?.amount ?? '0';
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="balances-title" py="sm">
      <Title order={2} size="h5" id="balances-title" mb={4}>
        My balances
      </Title>
      <Group gap="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
        <Text size="sm">
          {formatMoney(of(view.pair.buyCurrency), view.buy)} {view.buyTicker}
        </Text>
        <Text size="sm">
          {formatMoney(of(view.pair.sellCurrency), view.sell)} {view.sellTicker}
        </Text>
      </Group>
    </Card>
  );
}

function PairMarket({ view, pairs }: { view: PairView; pairs: Pair[] }) {
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  // Phones get one column in the order a trader needs it: funds, form, book, own orders, then charts.
  const isPhone = useMediaQuery('(max-width: 62em)', false, { getInitialValueInEffect: false });
  const balances = <Balances view={view} />;
  const form = <OrderForm key={view.pair._id} view={view} pickedPrice={picked} />;
  const book = <OrderBook view={view} onPick={(price) => setPicked({ price, at: Date.now() })} />;
  const mine = <MyOrders pairs={pairs} currentPair={view.pair._id} />;
  const chart = (
    <Suspense fallback={<PanelSkeleton label="Loading the price chart" height={370} lines={1} />}>
      <PriceChart view={view} />
    </Suspense>
  );
  const depth = (
    <Suspense fallback={<PanelSkeleton label="Loading the market depth" height={280} lines={2} />}>
      <DepthChart view={view} />
    </Suspense>
  );
  const trades = <RecentTrades view={view} />;
  if (isPhone) {
    return (
      <Stack gap="md">
        {balances}
        {form}
        {book}
        {mine}
        {chart}
        {depth}
        {trades}
      </Stack>
    );
  }
  return (
    <Grid gap="md">
      <Grid.Col span={8}>
        <Stack gap="md">
          {chart}
          {book}
          {depth}
        </Stack>
      </Grid.Col>
      <Grid.Col span={4}>
        <Stack gap="md">
          {balances}
          {form}
          {mine}
          {trades}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** The market's frame while the pairs load: the chart and the order form as placeholders. */
function MarketSkeleton() {
  return (
    <Grid gap="md" aria-busy="true">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <PanelSkeleton label="Loading trading pairs" height={370} lines={1} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <PanelSkeleton label="Loading the order form" height={370} lines={3} />
      </Grid.Col>
    </Grid>
  );
}

export function QuantumHubPage() {
  const pairs = usePairs();
  const { selected, choose } = useSelectedPair(pairs.data);
  const status = useExchangeSocket(selected?._id ?? null);
  const view = usePairView(selected);

  useEffect(() => {
    document.title = 'Quantum Hub · Starlight';
  }, []);

  return (
    <Stack gap="md" p={{ base: 0, sm: 'xs' }}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="xs" align="center">
          <Title order={1} size="h2">
            Quantum Hub
          </Title>
          <Tooltip label="Live updates over the exchange feed">
            <Badge color={STATUS[status].color} variant="dot">
              {STATUS[status].label}
            </Badge>
          </Tooltip>
        </Group>
        {(pairs.data?.length ?? 0) > 0 && (
          <Select
            label="Trading pair"
            data={(pairs.data ?? []).map((p) => ({ value: p._id, label: p.name }))}
            value={selected?._id ?? null}
            onChange={choose}
            allowDeselect={false}
            w={{ base: '100%', xs: 280 }}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      </Group>
      <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} py="xs" role="note">
        Fiat wire transfers for volumes of $5000 or more are arranged by contacting the team.
      </Alert>
      {pairs.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(pairs.error)}
        </Alert>
      )}
      {pairs.isLoading ? (
        <MarketSkeleton />
      ) : !view ? (
        <Card withBorder radius="md">
          <Text c="dimmed">No trading pairs yet</Text>
        </Card>
      ) : (
        <PairMarket view={view} pairs={pairs.data ?? []} />
      )}
    </Stack>
  );
}
