/**
 * SPEC §2 Checkout Control: the Create Package dialog (POST /api/checkout/packages/create): name,
 * description, image URL, cost in US dollars, Credits (currency 3, always), and up to two item grants
 * (type 1 or 2 with an amount). Empty fields are dropped (SPEC §5).
 */
import { Button, Modal, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { createPackageRequest } from '@starlight/shared';
import classes from '../../../components/admin.module.css';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { useAdminSubmit } from '../../../lib/use-admin-submit.ts';
import { useCreatePackage } from '../api/create-package.ts';
import { EMPTY_PACKAGE_FORM, type PackageFormValues, toCreatePackage } from '../utils/package-form.ts';

/** The dialog's fields in words, by their labels (SPEC §5 'Name is required'). */
const words = wordsOf(
  labelWords({
    name: 'Name',
    description: 'Description',
    imgUrl: 'Image URL',
    cost: 'Cost (USD)',
    amount: 'Credits',
  }),
);

export function CreatePackageModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const mutation = useCreatePackage();
  const form = useForm<PackageFormValues>({
    mode: 'controlled',
    initialValues: EMPTY_PACKAGE_FORM,
    validate: schemaValidate<PackageFormValues>(createPackageRequest, toCreatePackage, words),
  });
  const close = () => {
    form.reset();
    clearFailure();
    onClose();
  };
  const { failure, clearFailure, run } = useAdminSubmit(form, close, words);
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
            <NumberInput
              label="Alpha synth chips (item type 1)"
              min={0}
              allowDecimal={false}
              {...form.getInputProps('item1')}
            />
            <NumberInput
              label="Alpha ships (item type 2)"
              min={0}
              allowDecimal={false}
              {...form.getInputProps('item2')}
            />
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
