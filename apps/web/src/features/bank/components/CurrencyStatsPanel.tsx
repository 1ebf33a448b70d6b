/**
 * SPEC §2 Admin Console, Currency: the CurrencyStats panel. Prev day / week / month shortcuts, start and
 * end date, currency (All or a ticker), Search; a card per currency with its category breakdown
 * ("total in N txns"), Totals and Circulating. Empty: 'No CurrencyStats'.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  abbreviateAmount,
  type Currency,
  type CurrencyStatsEntry,
  type CurrencyStatsRequest,
  formatTotal,
  fromNumeric,
  TX_CATEGORY_LABELS,
  type TxCategory,
  UNIT,
} from '@starlight/shared';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { AdminSection } from '../../../components/AdminSection.tsx';
import { DateFilterInput } from '../../../components/DateFilterInput.tsx';
import { formatMoney } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { type RangeShortcut, shortcutRange, toWireDate } from '../../../lib/date-range.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useCurrencyStats } from '../api/currency-stats.ts';

const ABBREVIATE_FROM = 1_000_000n * UNIT;

/** An amount at the currency's precision, abbreviated (M, B, T, Q) from a million; full value on hover. */
function StatAmount({ amount, currency }: { amount: string; currency: Currency | undefined }) {
  const full = formatMoney(amount, currency);
  const a = fromNumeric(amount);
  const big = (a < 0n ? -a : a) >= ABBREVIATE_FROM;
  return (
    <span title={big ? full : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {big ? abbreviateAmount(a) : full}
    </span>
  );
}

function categoryLabel(category: number): string {
  return TX_CATEGORY_LABELS[category as TxCategory] ?? `Category ${category}`;
}

function StatsCard({ entry, currency }: { entry: CurrencyStatsEntry; currency: Currency | undefined }) {
  const categories = [...entry.categories].sort((a, b) => a.category - b.category);
  return (
    <Card
      withBorder
      radius="md"
      p="md"
      data-testid="currency-stats-card"
      aria-label={`${currency?.ticker ?? entry._id} stats`}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={4} lh={1.2}>
          {currency ? currency.ticker : `Currency ${entry._id}`}
        </Title>
        <Text size="sm" c="dimmed" truncate>
          {currency?.name}
        </Text>
      </Group>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {categories.map((c) => (
          <Group key={c.category} component="li" justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm">{categoryLabel(c.category)}</Text>
            <Text size="sm" ta="right" style={{ whiteSpace: 'nowrap' }}>
              <StatAmount amount={c.total} currency={currency} />{' '}
              <Text span c="dimmed" size="sm">
                in {formatTotal(c.count)} {c.count === 1 ? 'txn' : 'txns'}
              </Text>
            </Text>
          </Group>
        ))}
      </Stack>
      <Divider my="sm" />
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          Totals
        </Text>
        <Text size="sm" fw={600} data-testid="currency-stats-totals">
          <StatAmount amount={entry.totals} currency={currency} />
        </Text>
      </Group>
      <Group justify="space-between" wrap="nowrap" mt={4}>
        <Text size="sm" fw={600}>
          Circulating
        </Text>
        <Badge variant="light" size="lg" radius="sm" data-testid="currency-stats-circulating">
          <StatAmount amount={entry.circulating} currency={currency} />
        </Badge>
      </Group>
    </Card>
  );
}

export function CurrencyStatsPanel() {
  const currencies = useCurrencies();
  const [start, setStart] = useState<string | null>(null);
  const [end, setEnd] = useState<string | null>(null);
  const [currencyId, setCurrencyId] = useState('');
  const [request, setRequest] = useState<CurrencyStatsRequest>({});
  const stats = useCurrencyStats(request);
  useErrorToast(stats.error, stats.errorUpdatedAt);
  const rangeError = start && end && start > end ? 'End date is before the start date' : null;

  const search = (range: { start: string | null; end: string | null } = { start, end }) => {
    if (range.start && range.end && range.start > range.end) return;
    const body: CurrencyStatsRequest = {};
    const s = toWireDate(range.start);
    const e = toWireDate(range.end);
    if (s) body.startDate = s;
    if (e) body.endDate = e;
    if (currencyId) body.currencyId = Number(currencyId);
    // The same search again means "fetch fresh figures".
    if (JSON.stringify(body) === JSON.stringify(request)) void stats.refetch();
    else setRequest(body);
  };

  const shortcut = (kind: RangeShortcut) => {
    const r = shortcutRange(kind);
    setStart(r.start);
    setEnd(r.end);
    search(r);
  };

  const entries = [...(stats.data?.currencyStats ?? [])].sort((a, b) => a._id - b._id);

  return (
    <AdminSection
      id="currency-stats-title"
      title="CurrencyStats"
      aside={
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => shortcut('day')}>
            Prev day
          </Button>
          <Button size="xs" variant="light" onClick={() => shortcut('week')}>
            Prev week
          </Button>
          <Button size="xs" variant="light" onClick={() => shortcut('month')}>
            Prev month
          </Button>
        </Group>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" style={{ alignItems: 'end' }}>
          <DateFilterInput label="Start date" value={start} onChange={setStart} testId="currency-stats-start" />
          <DateFilterInput
            label="End date"
            value={end}
            onChange={setEnd}
            error={rangeError}
            testId="currency-stats-end"
          />
          <NativeSelect
            label="Currency"
            data={[
              { value: '', label: 'All' },
              ...(currencies.data ?? []).map((c) => ({ value: String(c.currencyId), label: c.ticker })),
            ]}
            value={currencyId}
            onChange={(e) => setCurrencyId(e.currentTarget.value)}
            data-testid="currency-stats-currency"
          />
          <Button
            type="submit"
            leftSection={<IconSearch size={16} />}
            loading={stats.isFetching}
            disabled={Boolean(rangeError)}
            data-testid="currency-stats-search"
          >
            Search
          </Button>
        </SimpleGrid>
      </form>
      {stats.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(stats.error)}
        </Alert>
      )}
      {stats.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" aria-label="Loading CurrencyStats">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={220} radius="md" />
          ))}
        </SimpleGrid>
      ) : entries.length === 0 ? (
        !stats.isError && (
          <Text c="dimmed" ta="center" py="lg" data-testid="currency-stats-empty">
            No CurrencyStats
          </Text>
        )
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="md"
          data-testid="currency-stats"
          style={{ opacity: stats.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {entries.map((e) => (
            <StatsCard key={e._id} entry={e} currency={currencies.byId.get(e._id)} />
          ))}
        </SimpleGrid>
      )}
    </AdminSection>
  );
}
