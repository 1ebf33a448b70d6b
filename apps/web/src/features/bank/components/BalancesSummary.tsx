/** The dashboard's balances: every non-zero balance (Credits included) at its currency's precision, linking to the bank. */
import { Avatar, Group, Loader, Stack, Text } from '@mantine/core';
import { Money } from '../../../components/Money.tsx';
import { SummaryCard } from '../../../components/SummaryCard.tsx';
import { useHoldings } from '../hooks/use-holdings.ts';

export function BalancesSummary() {
  const { all: holdings, currencies, me } = useHoldings();
  return (
    <SummaryCard title="Balances" link={{ to: '/userbank', search: { tab: 'bank' } }} linkText="Open the bank">
      {currencies.isLoading || me.isLoading ? (
        <Loader size="sm" />
      ) : holdings.length === 0 ? (
        <Text c="dimmed">You have no tokens yet.</Text>
      ) : (
        <Stack gap="xs">
          {holdings.map(({ currency, amount }) => (
            <Group key={currency.currencyId} justify="space-between" wrap="nowrap" gap="sm">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <Avatar src={currency.imgUrl || null} radius="xl" color="yellow" size="sm" alt="">
                  {currency.ticker.slice(0, 2)}
                </Avatar>
                <Text size="sm" truncate>
                  {currency.name}
                </Text>
              </Group>
              <Text size="sm" fw={600} data-testid={`summary-balance-${currency.ticker}`}>
                <Money amount={amount} currency={currency} />
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </SummaryCard>
  );
}
