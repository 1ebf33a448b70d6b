/**
 * SPEC §2 /provider: the thank-you page the payment provider sends the member back to, with buttons back
 * to checkout and to the dashboard. With `?checkout=` it says where that purchase stands (refreshed every
 * few seconds until the provider's event has arrived).
 */
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { CHECKOUT_STATE, CHECKOUT_STATE_LABELS, type CheckoutState } from '@starlight/shared';
import { IconHeartHandshake } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSession } from '../../../lib/session.ts';
import { useCheckouts } from '../api/get-checkouts.ts';

const route = getRouteApi('/provider');

function PurchaseState({ checkoutId }: { checkoutId: string }) {
  const checkouts = useCheckouts({ paging: { limit: 50, page: 1 } });
  const c = checkouts.data?.transactions.find((x) => x._id === checkoutId);
  if (checkouts.isLoading) return <Loader size="sm" />;
  if (!c) return null;
  const state = c.state as CheckoutState;
  const text =
    state === CHECKOUT_STATE.Completed
      ? `${c.amount} Credits are in your account.`
      : state === CHECKOUT_STATE.Cancelled
        ? 'The payment did not go through: nothing was charged.'
        : 'Your payment is being confirmed: the Credits arrive as soon as the provider confirms it.';
  return (
    <Text data-testid="purchase-state">
      {c.package.name}: <b>{CHECKOUT_STATE_LABELS[state] ?? state}</b>. {text}
    </Text>
  );
}

export function ProviderPage() {
  const { checkout } = route.useSearch();
  const signedIn = useSession((s) => s.token !== null);
  return (
    <Stack maw={560} mx="auto" gap="md">
      <Card withBorder radius="md" p="xl">
        <Stack gap="md" align="center" ta="center">
          <IconHeartHandshake size={48} color="var(--mantine-color-teal-4)" aria-hidden />
          <Title order={1} size="h2">
            Thank you for your purchase
          </Title>
          {signedIn && typeof checkout === 'string' && <PurchaseState checkoutId={checkout} />}
          <Group>
            <Button component={Link} to="/checkout" variant="light">
              Back to checkout
            </Button>
            <Button component={Link} to="/dashboard">
              Dashboard
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
