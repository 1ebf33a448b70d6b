/**
 * SPEC §2 Forge tab of the user area: heading Forge and one card per recipe, oldest first (`No Recipes`
 * when there is none). Starting one toasts the server's message and lights the Forge Logs button, where
 * the process counts down to its finish date.
 */
import { Alert, Button, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconListDetails } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useCurrencies } from '../../../lib/currencies.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useMe } from '../../../lib/me.ts';
import { useRecipes } from '../api/get-recipes.ts';
import { RecipeCard } from './RecipeCard.tsx';

export function ForgeTab() {
  // On a phone the Forge Logs follow the recipes on the same screen (the Account menu's Forge).
  const logsLink = !useMediaQuery('(max-width: 48em)');
  const navigate = useNavigate();
  const recipes = useRecipes();
  const { byId } = useCurrencies();
  const me = useMe();
  const [started, setStarted] = useState(false);
  const held = (currencyId: number) =>
    me.data ? (me.data.balances.find((b) => b.currencyId === currencyId)?.amount ?? '0') : undefined;
  const list = recipes.data ?? [];
  return (
    <Stack gap="md" component="section" aria-labelledby="forge-title">
      <Group justify="space-between">
        <Title order={2} id="forge-title">
          Forge
        </Title>
        {logsLink && (
          <Button
            onClick={() => void navigate({ to: '/userbank', search: { tab: 'logs', log: 'forge' } })}
            variant={started ? 'filled' : 'light'}
            leftSection={<IconListDetails size={18} />}
          >
            Forge Logs
          </Button>
        )}
      </Group>
      {recipes.isError && (
        <Alert color="red" title="Could not load the recipes">
          {errorMessage(recipes.error)}
        </Alert>
      )}
      {recipes.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <Skeleton h={260} />
          <Skeleton h={260} />
        </SimpleGrid>
      ) : list.length === 0 && !recipes.isError ? (
        <Text c="dimmed" ta="center" py="xl">
          No Recipes
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {list.map((r) => (
            <RecipeCard
              key={r._id}
              recipe={r}
              byId={byId}
              held={held(r.input.currencyId)}
              onStarted={() => setStarted(true)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
