/**
 * SPEC §2 Admin Console, Forge Control: Create Recipe; one card per recipe (oldest first, inactive ones
 * included) with its image, description, input and output, time required and Active Yes/No, and the
 * buttons Modify Recipe, SetActive and Delete (confirmed: running processes still finish). `No Recipes`.
 */
import { Badge, Button, Card, Group, Image, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type Currency, formatDuration, type Recipe } from '@starlight/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useDeleteRecipe } from '../api/delete-recipe.ts';
import { useRecipes } from '../api/get-recipes.ts';
import { useSetRecipeActive } from '../api/set-recipe-active.ts';
import { recipeSideText } from '../utils/side-text.ts';
import { RecipeFormModal } from './RecipeFormModal.tsx';

function AdminRecipeCard({
  recipe,
  byId,
  onModify,
  onDelete,
}: {
  recipe: Recipe;
  byId: Map<number, Currency>;
  onModify: () => void;
  onDelete: () => void;
}) {
  const setActive = useSetRecipeActive();
  const toggle = async () => {
    try {
      toastSuccess((await setActive.mutateAsync({ objectId: recipe._id, flag: !recipe.active })).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Card withBorder radius="md" p="md" component="li" aria-label={recipe.name} data-testid="admin-recipe-card">
      {recipe.imgUrl && (
        <Card.Section mb="sm">
          <Image src={recipe.imgUrl} alt="" h={100} fit="cover" fallbackSrc="/favicon.svg" />
        </Card.Section>
      )}
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="start">
          <Text fw={600}>{recipe.name}</Text>
          <Badge color={recipe.active ? 'teal' : 'gray'} variant="light">
            Active: {recipe.active ? 'Yes' : 'No'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {recipe.description}
        </Text>
        <Text size="sm">
          {recipeSideText(recipe.input, byId.get(recipe.input.currencyId))} →{' '}
          {recipeSideText(recipe.output, byId.get(recipe.output.currencyId))}
        </Text>
        <Text size="sm" c="dimmed">
          {formatDuration(recipe.timeRequired)}
        </Text>
        <Group gap={6} mt={4}>
          <Button size="compact-sm" variant="light" onClick={onModify} aria-label={`Modify Recipe ${recipe.name}`}>
            Modify Recipe
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color={recipe.active ? 'yellow' : 'teal'}
            loading={setActive.isPending}
            onClick={() => void toggle()}
            aria-label={`SetActive ${recipe.name}`}
          >
            {recipe.active ? 'Deactivate' : 'Activate'}
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={onDelete} aria-label={`Delete ${recipe.name}`}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function ForgeControlTab() {
  const recipes = useRecipes();
  const { byId } = useCurrencies();
  const remove = useDeleteRecipe();
  const [form, setForm] = useState<{ recipe: Recipe | null } | null>(null);
  const [deleting, setDeleting] = useState<Recipe | null>(null);
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      toastSuccess((await remove.mutateAsync({ objectId: deleting._id })).message);
      setDeleting(null);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  const list = recipes.data ?? [];
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="forge-control-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} id="forge-control-title">
            Forge Recipes
          </Title>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setForm({ recipe: null })}>
            Create Recipe
          </Button>
        </Group>
        {recipes.isError && <Text c="red.4">{errorMessage(recipes.error)}</Text>}
        {recipes.isLoading ? (
          <Skeleton h={160} />
        ) : list.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No Recipes
          </Text>
        ) : (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            component="ul"
            aria-label="Forge recipes"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
          >
            {list.map((r) => (
              <AdminRecipeCard
                key={r._id}
                recipe={r}
                byId={byId}
                onModify={() => setForm({ recipe: r })}
                onDelete={() => setDeleting(r)}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <RecipeFormModal opened={form !== null} recipe={form?.recipe ?? null} onClose={() => setForm(null)} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete Recipe"
        deleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        Delete {deleting?.name}? Members can no longer start it; processes already running still finish or cancel as
        started.
      </ConfirmDeleteModal>
    </Card>
  );
}
