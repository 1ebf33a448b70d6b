/**
 * SPEC §2 Checkout Control: the Create Package dialog (POST /api/checkout/packages/create): name,
 * description, image URL, cost in US dollars, Credits (currency 3, always), and up to two item grants
 * (type 1 or 2 with an amount). Empty fields are dropped (SPEC §5).
 */
import { Button, Modal, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { CREDITS_CURRENCY_ID, type CreatePackageRequest, createPackageRequest } from '@starlight/shared';
import { schemaValidate } from '../../../lib/form.ts';
import { useCreatePackage } from '../api/create-package.ts';
import { useAdminSubmit } from '../hooks/use-admin-submit.ts';
import classes from './admin.module.css';
import { DialogFooter } from './DialogFooter.tsx';

interface Values extends Record<string, unknown> {
  name: string;
  description: string;
  imgUrl: string;
  cost: string;
  amount: string;
  item1: number | string;
  item2: number | string;
}

const EMPTY: Values = { name: '', description: '', imgUrl: '', cost: '', amount: '', item1: '', item2: '' };

/** The request of the form's values (SPEC §5: package create always uses currency 3; empty fields dropped). */
export function toCreatePackage(v: Values): CreatePackageRequest {
  const body: Record<string, unknown> = { currency: CREDITS_CURRENCY_ID };
  for (const key of ['name', 'description', 'imgUrl', 'cost', 'amount'] as const) {
    if (v[key].trim() !== '') body[key] = v[key].trim();
  }
  const items = ([1, 2] as const)
    .map((type) => ({ type, amount: v[`item${type}`] }))
    .filter((i) => i.amount !== '' && Number(i.amount) !== 0)
    .map((i) => ({ type: i.type, amount: Number(i.amount) }));
  if (items.length > 0) body.items = items;
  return body as CreatePackageRequest;
}

export function CreatePackageModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const mutation = useCreatePackage();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaValidate<Values>(createPackageRequest, toCreatePackage),
  });
  const close = () => {
    form.reset();
    clearFailure();
    onClose();
  };
  const { failure, clearFailure, run } = useAdminSubmit(form, close);
  const submit = form.onSubmit((values) => run(() => mutation.mutateAsync(toCreatePackage(values))));
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create Package"
      size="lg"
      fullScreen={isPhone}
      className={classes.contrast}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" required autosize minRows={2} {...form.getInputProps('description')} />
          <TextInput label="Image URL" placeholder="https://" {...form.getInputProps('imgUrl')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="Cost (USD)"
              required
              inputMode="decimal"
              placeholder="9.99"
              {...form.getInputProps('cost')}
            />
            <TextInput label="Credits" required inputMode="decimal" {...form.getInputProps('amount')} />
            <NumberInput label="Items of type 1" min={0} allowDecimal={false} {...form.getInputProps('item1')} />
            <NumberInput label="Items of type 2" min={0} allowDecimal={false} {...form.getInputProps('item2')} />
          </SimpleGrid>
          <DialogFooter
            failure={failure}
            onCancel={close}
            submit={
              <Button type="submit" loading={mutation.isPending}>
                Create
              </Button>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
