/**
 * SPEC §2 Forge Control: the Create Recipe and Modify Recipe dialogs (POST /api/forge/recipes/create,
 * /modify). Time required is typed in seconds with its days/hours/min/sec reading beside it; Modify
 * sends only the fields that changed (SPEC §5).
 */
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { createRecipeRequest, formatDuration, modifyRecipeRequest, type Recipe } from '@starlight/shared';
import { useEffect } from 'react';
import classes from '../../../components/admin.module.css';
import { DialogFooter } from '../../../components/DialogFooter.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { labelWords, wordsOf } from '../../../lib/field-words.ts';
import { schemaValidate } from '../../../lib/form.ts';
import { useAdminSubmit } from '../../../lib/use-admin-submit.ts';
import { useCreateRecipe } from '../api/create-recipe.ts';
import { useModifyRecipe } from '../api/modify-recipe.ts';
import {
  EMPTY_RECIPE_FORM,
  type RecipeFormValues,
  recipeFormValues,
  toCreateRecipe,
  toModifyRecipe,
} from '../utils/recipe-form.ts';

/** The dialog's fields in words, by their labels (SPEC §5 'Name is required'). */
const words = wordsOf(
  labelWords({
    name: 'Name',
    description: 'Description',
    imgUrl: 'Image URL',
    timeRequired: 'Time required',
    'input.currencyId': 'Input currency',
    'input.amount': 'Input amount',
    'output.currencyId': 'Output currency',
    'output.amount': 'Output amount',
    active: 'Active',
  }),
);

/** `recipe` null: Create Recipe; otherwise Modify Recipe of it. */
export function RecipeFormModal({
  opened,
  recipe,
  onClose,
}: {
  opened: boolean;
  recipe: Recipe | null;
  onClose: () => void;
}) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const { data: currencies = [] } = useCurrencies();
  const create = useCreateRecipe();
  const modify = useModifyRecipe();
  const initial = recipe ? recipeFormValues(recipe) : EMPTY_RECIPE_FORM;
  const form = useForm<RecipeFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: recipe
      ? schemaValidate<RecipeFormValues>(modifyRecipeRequest, (v) => toModifyRecipe(recipe._id, initial, v), words)
      : schemaValidate<RecipeFormValues>(createRecipeRequest, toCreateRecipe, words),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload the form when another recipe is opened
  useEffect(() => {
    if (opened) {
      form.setValues(initial);
      form.resetDirty(initial);
    }
  }, [opened, recipe?._id]);

  const close = () => {
    form.reset();
    clearFailure();
    onClose();
  };
  const { failure, clearFailure, run } = useAdminSubmit(form, close, words);
  const submit = form.onSubmit((values) =>
    run(() =>
      recipe
        ? modify.mutateAsync(toModifyRecipe(recipe._id, initial, values))
        : create.mutateAsync(toCreateRecipe(values)),
    ),
  );
  const choices = currencies.map((c) => ({ value: String(c.currencyId), label: `${c.name} (${c.ticker})` }));
  const seconds = Number(form.values.timeRequired);
  const title = recipe ? 'Modify Recipe' : 'Create Recipe';

  return (
    <Modal opened={opened} onClose={close} title={title} size="lg" fullScreen={isPhone} className={classes.contrast}>
      <form onSubmit={submit} noValidate data-testid="recipe-form">
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" required autosize minRows={2} {...form.getInputProps('description')} />
          <TextInput label="Image URL" placeholder="https://" {...form.getInputProps('imgUrl')} />
          <NumberInput
            label="Time required (seconds)"
            required
            min={1}
            allowDecimal={false}
            allowNegative={false}
            description={Number.isInteger(seconds) && seconds >= 1 ? formatDuration(seconds) : ' '}
            {...form.getInputProps('timeRequired')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select label="Input currency" required data={choices} {...form.getInputProps('input.currencyId')} />
            <TextInput label="Input amount" required inputMode="decimal" {...form.getInputProps('input.amount')} />
            <Select label="Output currency" required data={choices} {...form.getInputProps('output.currencyId')} />
            <TextInput label="Output amount" required inputMode="decimal" {...form.getInputProps('output.amount')} />
          </SimpleGrid>
          {!recipe && <Checkbox label="Active" {...form.getInputProps('active', { type: 'checkbox' })} />}
          <DialogFooter
            failure={failure}
            onCancel={close}
            submit={
              <Group>
                <Button type="submit" loading={create.isPending || modify.isPending}>
                  {recipe ? 'Modify' : 'Create'}
                </Button>
              </Group>
            }
          />
        </Stack>
      </form>
    </Modal>
  );
}
