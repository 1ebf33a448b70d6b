/**
 * The sandbox provider's payment page (`/checkout/sandbox/{checkoutId}`, DESIGN §7): stands in for the
 * card or crypto provider when it has no settings. Pay, Fail and Delay make the server send itself the
 * signed event a provider would; Pay then leads to the thank-you page.
 */
import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import {
  CHECKOUT_STATE_LABELS,
  type CheckoutState,
  PROVIDER_LABELS,
  type ProviderId,
  type SandboxAction,
} from '@starlight/shared';
import { IconCheck, IconClockPause, IconX } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastInfo, toastSuccess } from '../../../lib/notify.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { useCheckouts } from '../api/get-checkouts.ts';
import { useSandboxAction } from '../api/sandbox-action.ts';

const route = getRouteApi('/checkout/sandbox/$checkoutId');

export function SandboxPage() {
  const user = useRequireSession();
  const { checkoutId } = route.useParams();
  const navigate = useNavigate();
  const checkouts = useCheckouts({ paging: { limit: 50, page: 1 } });
  const press = useSandboxAction(checkoutId);
  if (!user) return <Loader m="xl" />;
  const checkout = checkouts.data?.transactions.find((c) => c._id === checkoutId);

  const act = async (action: SandboxAction) => {
    try {
      const res = await press.mutateAsync(action);
      // A failed payment is news of a failure (SPEC §8: the error colour), not a success.
      if (res.outcome === 'cancelled') toastError(res.message);
      else if (res.outcome === 'completed') toastSuccess(res.message);
      else toastInfo(res.message);
      if (action === 'pay') await navigate({ to: '/provider', search: { checkout: checkoutId } });
      if (action === 'fail') await navigate({ to: '/checkout' });
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  return (
    <Stack maw={560} mx="auto" gap="md">
      <Title order={1} size="h2">
        Sandbox payment
      </Title>
      <Alert color="yellow" variant="light">
        No real money moves here: this test provider stands in for the payment provider, and sends Starlight the same
        signed event a real one would.
      </Alert>
      <Card withBorder radius="md" p="lg">
        {checkouts.isLoading ? (
          <Loader size="sm" />
        ) : !checkout ? (
          <Text c="red.4">Checkout not found</Text>
        ) : (
          <Stack gap="sm">
            <Text>
              <Text span c="dimmed" inherit>
                Package{' '}
              </Text>
              <Text span fw={600} inherit>
                {checkout.package.name}
              </Text>
            </Text>
            <Text>
              <Text span c="dimmed" inherit>
                Amount{' '}
              </Text>
              <Text span fw={700} size="xl" inherit>
                ${checkout.package.cost}
              </Text>{' '}
              <Text span c="dimmed" inherit>
                by {PROVIDER_LABELS[checkout.checkoutProvider as ProviderId] ?? checkout.checkoutProvider}
              </Text>
            </Text>
            <Text size="sm" c="dimmed">
              State: {CHECKOUT_STATE_LABELS[checkout.state as CheckoutState] ?? checkout.state}
            </Text>
            <Group gap="sm" mt="sm">
              <Button
                color="teal"
                leftSection={<IconCheck size={18} />}
                onClick={() => void act('pay')}
                loading={press.isPending}
              >
                Pay
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconX size={18} />}
                onClick={() => void act('fail')}
                disabled={press.isPending}
              >
                Fail
              </Button>
              <Button
                variant="default"
                leftSection={<IconClockPause size={18} />}
                onClick={() => void act('delay')}
                disabled={press.isPending}
              >
                Delay
              </Button>
            </Group>
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
