/**
 * SPEC §2 /provider: the thank-you page the payment provider sends the member back to, with buttons back
 * to checkout and to the dashboard. It thanks only for a purchase it can show: `?checkout=` naming one of
 * the signed-in member's checkouts (among their latest 50), and says where it stands. Without one, or
 * with one that is not theirs or does not exist, it says so plainly and offers the store.
 */
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import {
  CHECKOUT_STATE,
  CHECKOUT_STATE_LABELS,
  type Checkout,
  type CheckoutState,
  CREDITS_CURRENCY_ID,
} from '@starlight/shared';
import { IconHeartHandshake, IconReceiptOff } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { useSession } from '../../../lib/session.ts';
import { useCheckouts } from '../api/get-checkouts.ts';

const route = getRouteApi('/provider');

function PurchaseState({ c }: { c: Checkout }) {
  const credits = useCurrencies().byId.get(CREDITS_CURRENCY_ID);
  const state = c.state as CheckoutState;
  const text =
    state === CHECKOUT_STATE.Completed
      ? `${formatMoneyWithTicker(c.amount, credits, 'CR')} are in your account.`
      : state === CHECKOUT_STATE.Cancelled
        ? 'The payment did not go through: nothing was charged.'
        : 'Your payment is being confirmed: the Credits arrive as soon as the provider confirms it.';
  return (
    <Text data-testid="purchase-state">
      {c.package.name}: <b>{CHECKOUT_STATE_LABELS[state] ?? state}</b>. {text}
    </Text>
  );
}

function Frame({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Stack maw={560} mx="auto" gap="md">
      <Card withBorder radius="md" p="xl">
        <Stack gap="md" align="center" ta="center">
          {icon}
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Card>
    </Stack>
  );
}

/** No purchase to thank for: the reason, and the way to the store. */
function NoPurchase({ reason, signedIn }: { reason: string; signedIn: boolean }) {
  return (
    <Frame
      icon={<IconReceiptOff size={48} color="var(--mantine-color-gray-5)" aria-hidden />}
      title="No purchase to show"
    >
      <Text>{reason}</Text>
      <Group justify="center">
        <Button component={Link} to="/checkout">
          Go to the store
        </Button>
        {signedIn ? (
          <Button component={Link} to="/dashboard" variant="light">
            Dashboard
          </Button>
        ) : (
          <Button component={Link} to="/login" variant="light">
            Sign in
          </Button>
        )}
      </Group>
    </Frame>
  );
}

function Purchase({ checkoutId }: { checkoutId: string }) {
  const checkouts = useCheckouts({ paging: { limit: 50, page: 1 } });
  if (checkouts.isLoading) return <Loader size="sm" aria-label="Loading your purchase" />;
  const c = checkouts.data?.transactions.find((x) => x._id === checkoutId);
  if (!c) return <NoPurchase signedIn reason="We found no purchase of yours with this reference." />;
  // A payment that did not go through is told in the error colour, never as a thank-you.
  const failed = c.state === CHECKOUT_STATE.Cancelled;
  return (
    <Frame
      icon={
        failed ? (
          <IconReceiptOff size={48} color="var(--mantine-color-red-5)" aria-hidden />
        ) : (
          <IconHeartHandshake size={48} color="var(--mantine-color-teal-4)" aria-hidden />
        )
      }
      title={failed ? 'Payment failed' : 'Thank you for your purchase'}
    >
      <PurchaseState c={c} />
      <Group>
        <Button component={Link} to="/checkout" variant="light">
          Back to checkout
        </Button>
        <Button component={Link} to="/dashboard">
          Dashboard
        </Button>
      </Group>
    </Frame>
  );
}

export function ProviderPage() {
  const { checkout } = route.useSearch();
  const signedIn = useSession((s) => s.token !== null);
  if (!signedIn) return <NoPurchase signedIn={false} reason="Sign in to see your purchases." />;
  if (typeof checkout !== 'string' || checkout === '')
    return <NoPurchase signedIn reason="You have not bought anything on this visit." />;
  return <Purchase checkoutId={checkout} />;
}
