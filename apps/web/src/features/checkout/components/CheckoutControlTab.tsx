/**
 * SPEC §2 Admin Console, Checkout Control: Create Package; one card per package (name, image,
 * description, Cost, Credits, Active, Published) with Delete (confirmed), Publish (disabled and labelled
 * Published once published: it cannot be undone) and Set Active (sends the opposite of the current
 * value, SPEC §4), which reads the state and the action ("Active · Deactivate"): the two buttons show
 * Published and Active, so no badge repeats them. A line says whether the
 * package is on sale: members see it only once it is published and active (DESIGN §7); a new package
 * starts active and unpublished, so Publish is the one deliberate step that puts it on sale.
 * `No Packages`.
 */
import { Button, Card, Group, Image, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type CheckoutPackage, packageItemLabel } from '@starlight/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { formatMoneyWithTicker } from '../../../components/Money.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { usePackages } from '../api/get-packages.ts';
import { type PackageAction, usePackageAction } from '../api/package-action.ts';
import { CreatePackageModal } from './CreatePackageModal.tsx';

/** Whether members can buy the package (published and active, DESIGN §7), and if not, why. */
function saleText(pkg: CheckoutPackage): string {
  if (!pkg.published) return 'Not on sale: publish it to sell it';
  if (!pkg.active) return 'Not on sale: inactive';
  return 'On sale';
}

function PackageCard({ pkg, onDelete }: { pkg: CheckoutPackage; onDelete: () => void }) {
  const action = usePackageAction();
  const run = async (a: PackageAction) => {
    try {
      toastSuccess((await action.mutateAsync(a)).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  // The state, then what pressing does: a single "Set Active" label would read the same for both states.
  const credits = useCurrencies().byId.get(pkg.currency.currencyId);
  const toggleText = pkg.active ? 'Active · Deactivate' : 'Inactive · Activate';
  return (
    <Card withBorder radius="md" p="md" component="li" aria-label={pkg.name} data-testid="admin-package-card">
      {pkg.imgUrl && (
        <Card.Section mb="sm">
          <Image src={pkg.imgUrl} alt="" h={100} fit="cover" fallbackSrc="/favicon.svg" />
        </Card.Section>
      )}
      <Stack gap={6}>
        <Text fw={600}>{pkg.name}</Text>
        <Text size="sm" c="dimmed">
          {pkg.description}
        </Text>
        <Text size="sm">
          Cost: <b>${pkg.cost}</b> · Credits: <b>{formatMoneyWithTicker(pkg.amount, credits, 'CR')}</b>
          {pkg.items.length > 0 &&
            ` · Items: ${pkg.items.map((i) => `${i.amount} × ${packageItemLabel(i.type)}`).join(', ')}`}
        </Text>
        <Text size="sm" fw={500} c={pkg.published && pkg.active ? 'teal.4' : 'dimmed'} data-testid="package-sale">
          {saleText(pkg)}
        </Text>
        <Group gap={6} mt={4}>
          <Button
            size="compact-sm"
            variant="light"
            disabled={pkg.published}
            onClick={() => void run({ kind: 'publish', objectId: pkg._id })}
            aria-label={pkg.published ? `${pkg.name} is published` : `Publish ${pkg.name}`}
          >
            {pkg.published ? 'Published' : 'Publish'}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color={pkg.active ? 'yellow' : 'teal'}
            onClick={() => void run({ kind: 'setactive', objectId: pkg._id, flag: !pkg.active })}
            aria-label={`${toggleText} ${pkg.name}`}
          >
            {toggleText}
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={onDelete} aria-label={`Delete ${pkg.name}`}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function CheckoutControlTab() {
  const packages = usePackages();
  const remove = usePackageAction();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<CheckoutPackage | null>(null);
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      toastSuccess((await remove.mutateAsync({ kind: 'delete', objectId: deleting._id })).message);
      setDeleting(null);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const list = packages.data ?? [];
  return (
    <Card
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      component="section"
      aria-labelledby="checkout-control-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} id="checkout-control-title">
            Packages
          </Title>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            Create Package
          </Button>
        </Group>
        {packages.isError && <Text c="red.4">{errorMessage(packages.error)}</Text>}
        {packages.isLoading ? (
          <Skeleton h={160} />
        ) : list.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No Packages
          </Text>
        ) : (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            component="ul"
            aria-label="Packages"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
          >
            {list.map((p) => (
              <PackageCard key={p._id} pkg={p} onDelete={() => setDeleting(p)} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <CreatePackageModal opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete Package"
        deleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        Delete {deleting?.name}? It leaves the store; purchases already made keep their history.
      </ConfirmDeleteModal>
    </Card>
  );
}
