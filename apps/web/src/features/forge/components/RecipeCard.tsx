/**
 * SPEC §2 Forge screen, one recipe: name, image, description, input and output (currency name x amount),
 * time required (days/hours/min/sec), a Quantity field and Start Forge. The total the member pays and
 * gets for the quantity is shown before they start, and Start Forge is off when they cannot cover it.
 */
import { Badge, Button, Card, Group, Image, NumberInput, Stack, Text, Title } from '@mantine/core';
import { type Currency, formatDuration, fromNumeric, type Recipe } from '@starlight/shared';
import { IconArrowRight, IconFlame } from '@tabler/icons-react';
import { useState } from 'react';
import { formatMoney } from '../../../components/Money.tsx';
import { toastSuccess } from '../../../lib/notify.ts';
import { useStartProcess } from '../api/start-process.ts';
import { recipeSideText } from '../utils/side-text.ts';

export function RecipeCard({
  recipe,
  byId,
  held,
  onStarted,
}: {
  recipe: Recipe;
  byId: Map<number, Currency>;
  /** What the member holds of the input currency (decimal string), or undefined while unknown. */
  held: string | undefined;
  onStarted: () => void;
}) {
  const [quantity, setQuantity] = useState<number | string>(1);
  const start = useStartProcess();
  const q = typeof quantity === 'number' && Number.isInteger(quantity) && quantity >= 1 ? quantity : null;
  const input = byId.get(recipe.input.currencyId);
  const output = byId.get(recipe.output.currencyId);
  const cost = q === null ? null : fromNumeric(recipe.input.amount) * BigInt(q);
  const short = cost !== null && held !== undefined && fromNumeric(held) < cost;
  const titleId = `recipe-${recipe._id}`;

  const submit = async () => {
    if (q === null) return;
    try {
      const res = await start.mutateAsync({ recipeId: recipe._id, quantity: q });
      toastSuccess(res.message);
      onStarted();
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };

  return (
    <Card withBorder radius="md" p="md" component="article" aria-labelledby={titleId}>
      {recipe.imgUrl && (
        <Card.Section mb="sm">
          <Image src={recipe.imgUrl} alt="" h={140} fit="cover" fallbackSrc="/favicon.svg" />
        </Card.Section>
      )}
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="start">
          <Title order={3} size="h4" id={titleId}>
            {recipe.name}
          </Title>
          {!recipe.active && <Badge color="gray">Inactive</Badge>}
        </Group>
        <Text size="sm" c="dimmed">
          {recipe.description}
        </Text>
        <Group gap={6} wrap="wrap" aria-label="Input and output">
          <Badge variant="light" color="orange" size="lg" tt="none">
            {recipeSideText(recipe.input, input)}
          </Badge>
          <IconArrowRight size={16} aria-hidden />
          <Badge variant="light" color="teal" size="lg" tt="none">
            {recipeSideText(recipe.output, output)}
          </Badge>
        </Group>
        <Text size="sm">
          <Text span c="dimmed" inherit>
            Time required:{' '}
          </Text>
          {formatDuration(recipe.timeRequired)}
        </Text>
        <Group align="end" gap="sm" mt="auto" wrap="nowrap">
          <NumberInput
            label="Quantity"
            min={1}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            value={quantity}
            onChange={setQuantity}
            w={110}
            error={q === null ? 'Quantity must be a whole number of at least 1' : undefined}
          />
          <Button
            leftSection={<IconFlame size={18} />}
            onClick={() => void submit()}
            loading={start.isPending}
            disabled={q === null || short || !recipe.active}
          >
            Start Forge
          </Button>
        </Group>
        {q !== null && (
          <Text size="xs" c={short ? 'red.4' : 'dimmed'} aria-live="polite">
            {short
              ? `Not enough ${input?.ticker ?? 'funds'}: you hold ${formatMoney(held ?? '0', input)}`
              : `Pays ${recipeSideText(recipe.input, input, q)}, gives ${recipeSideText(recipe.output, output, q)}`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
