/** The dashboard's recent activity: the member's last five ledger rows, linking to the full User Logs. */
import { Group, Loader, Stack, Text } from '@mantine/core';
import { formatDate, TX_CATEGORY_LABELS, type TxCategory } from '@starlight/shared';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { SummaryCard } from '../../../components/SummaryCard.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useSession } from '../../../lib/session.ts';
import { useTransactions } from '../../../lib/tx-log/get-transactions.ts';

const LATEST = { paging: { limit: 5, page: 1 } };

export function RecentActivity() {
  const me = useSession((s) => s.user?.nickname);
  const { byId } = useCurrencies();
  const txs = useTransactions('own', LATEST);
  const rows = txs.data?.txs ?? [];
  return (
    <SummaryCard title="Recent activity" link={{ to: '/userbank', search: { tab: 'logs' } }} linkText="All activity">
      {txs.isPending ? (
        <Loader size="sm" />
      ) : txs.isError ? (
        <Text c="red.4">{errorMessage(txs.error)}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No Transactions</Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Recent activity">
          {rows.map((tx) => {
            const currency = byId.get(tx.balance.currencyId);
            const incoming = tx.recipient?.nickname === me;
            const other = (incoming ? tx.sender?.nickname : tx.recipient?.nickname) ?? 'System';
            return (
              <Group key={tx._id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" truncate>
                    {TX_CATEGORY_LABELS[tx.category as TxCategory] ?? tx.category} · {incoming ? 'from' : 'to'} {other}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDate(tx.createdAt)}
                  </Text>
                </Stack>
                <Text size="sm" fw={600} c={incoming ? 'teal.4' : 'red.4'} style={{ whiteSpace: 'nowrap' }}>
                  {incoming ? '+' : '−'}
                  {formatMoneyWithTicker(tx.balance.amount, currency)}
                </Text>
              </Group>
            );
          })}
        </Stack>
      )}
    </SummaryCard>
  );
}
