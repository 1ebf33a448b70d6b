/**
 * The dashboard's portfolio (DESIGN §11.4 `portfolio`): everything the member holds (open orders'
 * escrow included) valued in a currency they pick, at the exchange's last traded prices, each holding's
 * price and value (or "No price path to X"), and the last 30 days of their balances' value as a chart.
 */
import { Alert, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { CREDITS_CURRENCY_ID, type Currency, type PortfolioHolding, type PortfolioResponse } from '@starlight/shared';
import { lazy, Suspense, useState } from 'react';
import { DeferredSelect } from '../../../components/DeferredSelect.tsx';
import { formatMoney, formatMoneyWithTicker } from '../../../components/Money.tsx';
import { WhenVisible } from '../../../components/WhenVisible.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { usePortfolio } from '../api/get-portfolio.ts';

const CHART_HEIGHT = 200;
const NUMBERS = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** The currency to value in: the member's pick, else Credits, else the first listed. */
function defaultCurrency(list: readonly Currency[]): number | null {
  return (list.find((c) => c.currencyId === CREDITS_CURRENCY_ID) ?? list[0])?.currencyId ?? null;
}

/** A price as the table shows it: grouped digits, every decimal the server sent (up to 9). */
function formatPrice(price: string): string {
  const [whole, frac] = price.split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

function HoldingsTable({
  holdings,
  target,
  byId,
}: {
  holdings: PortfolioHolding[];
  target: Currency;
  byId: ReadonlyMap<number, Currency>;
}) {
  return (
    <Table.ScrollContainer minWidth={300} type="native">
      <Table aria-label="Holdings" verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              Price ({target.ticker})
            </Table.Th>
            <Table.Th ta="right">Value ({target.ticker})</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {holdings.map((h) => {
            const currency = byId.get(h.currencyId);
            return (
              <Table.Tr key={h.currencyId}>
                <Table.Td>{currency?.ticker ?? `#${h.currencyId}`}</Table.Td>
                <Table.Td ta="right" style={NUMBERS}>
                  {formatMoney(h.amount, currency)}
                </Table.Td>
                <Table.Td ta="right" style={NUMBERS} visibleFrom="sm">
                  {h.price === null ? '—' : formatPrice(h.price)}
                </Table.Td>
                <Table.Td ta="right" style={h.value === null ? undefined : NUMBERS}>
                  {h.value === null ? (
                    <Text span size="xs" c="dimmed">
                      No price path to {target.ticker}
                    </Text>
                  ) : (
                    formatMoney(h.value, target)
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The chart's code (the charting library) arrives only when the chart is scrolled to. */
const PortfolioChart = lazy(() => import('./PortfolioChart.tsx').then((m) => ({ default: m.PortfolioChart })));

function HistoryChart({ history, target }: { history: PortfolioResponse['history']; target: Currency }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Your balances' value over the last 30 days (funds set aside in open orders are in the total, not in the chart)
      </Text>
      <WhenVisible minHeight={CHART_HEIGHT}>
        <Suspense fallback={<Loader size="sm" mih={CHART_HEIGHT} aria-label="Loading the chart" />}>
          <PortfolioChart history={history} ticker={target.ticker} height={CHART_HEIGHT} />
        </Suspense>
      </WhenVisible>
    </Stack>
  );
}

export function PortfolioCard() {
  const currencies = useCurrencies();
  const list = currencies.data ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const currencyId = picked ?? defaultCurrency(list);
  const portfolio = usePortfolio(currencyId);
  const target = currencyId === null ? undefined : currencies.byId.get(currencyId);
  const data = portfolio.data;

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="portfolio-title">
      <Group justify="space-between" align="flex-end" mb="sm" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id="portfolio-title">
            Portfolio
          </Title>
          {data && target && (
            <Text fw={700} size="xl" style={NUMBERS} data-testid="portfolio-value">
              {formatMoneyWithTicker(data.value, target)}
            </Text>
          )}
        </Stack>
        <DeferredSelect
          label="Value in"
          w={{ base: '100%', xs: 260 }}
          data={list.map((c) => ({ value: String(c.currencyId), label: `${c.ticker} · ${c.name}` }))}
          value={currencyId === null ? null : String(currencyId)}
          onChange={(v) => v && setPicked(Number(v))}
          allowDeselect={false}
          searchable
          disabled={list.length === 0}
          placeholder={currencies.isLoading ? 'Loading currencies…' : 'Choose a currency'}
        />
      </Group>
      {portfolio.error ? (
        <Alert color="red" variant="light" title="Could not load your portfolio">
          {errorMessage(portfolio.error)}
        </Alert>
      ) : currencies.isLoading || portfolio.isPending || !data || !target ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            Loading your portfolio…
          </Text>
        </Group>
      ) : data.holdings.length === 0 ? (
        <Text c="dimmed">You hold nothing yet: your portfolio shows here once you have tokens.</Text>
      ) : (
        <Stack gap="md">
          <HoldingsTable holdings={data.holdings} target={target} byId={currencies.byId} />
          <HistoryChart history={data.history} target={target} />
        </Stack>
      )}
    </Card>
  );
}
