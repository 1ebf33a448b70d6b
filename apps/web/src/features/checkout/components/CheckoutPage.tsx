/**
 * SPEC §2 /checkout (Buy Credits): the packages on sale and the choice of provider (card or crypto).
 * Buying opens a checkout and, 5 seconds later, sends the member to the provider's payment page (a link
 * lets them go at once). Signed out, a package offers the way to log in instead. Only the providers the
 * server offers are listed; with none configured the page says so and offers no Buy at all.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type CheckoutPackage, PROVIDER_LABELS, type ProviderId, packageItemLabel } from '@starlight/shared';
import { IconCreditCard, IconCurrencyBitcoin, IconShoppingCart } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useBuyPackage } from '../api/buy-package.ts';
import { usePackages, usePaymentProviders } from '../api/get-packages.ts';

/** SPEC §2: the wait before the member is sent to the provider. */
const REDIRECT_MS = 5000;

function PackageCard({
  pkg,
  onBuy,
  buying,
  signedIn,
  canBuy,
}: {
  pkg: CheckoutPackage;
  onBuy: () => void;
  buying: boolean;
  signedIn: boolean;
  /** False when no payment provider is configured: no Buy, no way to log in to buy. */
  canBuy: boolean;
}) {
  const { byId } = useCurrencies();
  const credits = byId.get(pkg.currency.currencyId);
  const titleId = `package-${pkg._id}`;
  return (
    <Card withBorder radius="md" p="md" component="article" aria-labelledby={titleId}>
      {pkg.imgUrl && (
        <Card.Section mb="sm">
          <Image src={pkg.imgUrl} alt="" h={140} fit="cover" fallbackSrc="/favicon.svg" />
        </Card.Section>
      )}
      <Stack gap="xs" h="100%">
        <Title order={3} size="h4" id={titleId}>
          {pkg.name}
        </Title>
        <Text size="sm" c="dimmed">
          {pkg.description}
        </Text>
        <Group gap="xs">
          <Badge size="lg" variant="light" color="teal" tt="none">
            {formatMoneyWithTicker(pkg.amount, credits, 'CR')}
          </Badge>
          {pkg.items.map((i) => (
            <Badge key={i.type} variant="light" color="grape" tt="none">
              {i.amount} × {packageItemLabel(i.type)}
            </Badge>
          ))}
        </Group>
        <Group justify="space-between" mt="auto" align="center">
          <Text fw={700} size="xl">
            ${pkg.cost}
          </Text>
          {!canBuy ? null : signedIn ? (
            <Button
              leftSection={<IconShoppingCart size={18} />}
              onClick={onBuy}
              loading={buying}
              aria-label={`Buy ${pkg.name}`}
            >
              Buy
            </Button>
          ) : (
            <Anchor component={Link} to="/login">
              Log in to buy
            </Anchor>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

const PROVIDER_OPTIONS: Array<{ value: ProviderId; icon: typeof IconCreditCard }> = [
  { value: 2, icon: IconCreditCard },
  { value: 1, icon: IconCurrencyBitcoin },
];

export function CheckoutPage() {
  const packages = usePackages();
  const providers = usePaymentProviders();
  const signedIn = useSession((s) => s.token !== null);
  const buy = useBuyPackage();
  const navigate = useNavigate();
  const [chosen, setProvider] = useState<ProviderId>(2);
  // Until the server says, both are offered; then only those it serves (card first when it does).
  const offered = providers.data ?? [1, 2];
  const options = PROVIDER_OPTIONS.filter((o) => offered.includes(o.value));
  const provider = offered.includes(chosen) ? chosen : (options[0]?.value ?? chosen);
  const noProvider = providers.isSuccess && offered.length === 0;
  const [buying, setBuying] = useState<string | null>(null);
  const [redirect, setRedirect] = useState<string | null>(null);

  useEffect(() => {
    if (!redirect) return;
    const timer = setTimeout(() => go(redirect), REDIRECT_MS);
    return () => clearTimeout(timer);
  });

  /** A sandbox link stays in the app; a provider's page is another site. */
  function go(link: string) {
    if (link.startsWith('/')) void navigate({ to: link });
    else window.location.assign(link);
  }

  const onBuy = async (pkg: CheckoutPackage) => {
    setBuying(pkg._id);
    try {
      const res = await buy.mutateAsync({ packageId: pkg._id, providerId: provider });
      toastSuccess(res.message);
      setRedirect(res.link);
    } catch (err) {
      toastError(errorMessage(err));
    } finally {
      setBuying(null);
    }
  };

  const list = packages.data ?? [];
  return (
    <Stack maw={1100} mx="auto" gap="md">
      <Title order={1} size="h2">
        Buy Credits
      </Title>
      {redirect && (
        <Alert color="blue" title="Redirecting to the payment provider" role="status">
          You will be sent to the payment page in 5 seconds.{' '}
          <Anchor component="button" type="button" onClick={() => go(redirect)}>
            Go now
          </Anchor>
        </Alert>
      )}
      {noProvider ? (
        <Alert color="yellow" title="No payment provider is configured" role="status">
          Credits cannot be bought here for now: this server takes neither card nor crypto payments yet.
        </Alert>
      ) : (
        <Group gap="sm" align="center">
          <Text fw={500} id="provider-label">
            Pay with
          </Text>
          <SegmentedControl
            aria-labelledby="provider-label"
            value={String(provider)}
            onChange={(v) => setProvider(Number(v) as ProviderId)}
            data={options.map(({ value, icon: Icon }) => ({
              value: String(value),
              label: (
                <Group gap={6} wrap="nowrap">
                  <Icon size={16} aria-hidden />
                  {PROVIDER_LABELS[value]}
                </Group>
              ),
            }))}
          />
        </Group>
      )}
      {packages.isError && <Alert color="red">{errorMessage(packages.error)}</Alert>}
      {packages.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <Skeleton h={240} />
          <Skeleton h={240} />
        </SimpleGrid>
      ) : list.length === 0 && !packages.isError ? (
        <Text c="dimmed" ta="center" py="xl">
          No Packages
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {list.map((p) => (
            <PackageCard
              key={p._id}
              pkg={p}
              signedIn={signedIn}
              canBuy={!noProvider}
              buying={buying === p._id}
              onBuy={() => void onBuy(p)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
