/**
 * SPEC §2 /openasc: a slider from 1 to min(chips held, 100), Commence, and the list of the ships just
 * created, each with the picture of its class and its rarity in that rarity's colour. Needs a signed-in
 * member.
 */
import { Badge, Button, Card, Group, Image, Slider, Stack, Table, Text, Title } from '@mantine/core';
import { MAX_CHIPS_PER_OPENING, type OpenSynthChipsResponse } from '@starlight/shared';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useMe } from '../../../lib/me.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useRequireSession } from '../../../lib/use-require-session.ts';
import { useChipAction, useSynthChips } from '../api/synth-chips.ts';
import { rarityColor, shipImage } from '../utils/rarity.ts';

export function OpenChipsPage() {
  const user = useRequireSession();
  const me = useMe();
  const sale = useSynthChips();
  const open = useChipAction('openSynthChips');
  const [amount, setAmount] = useState(1);
  const [created, setCreated] = useState<OpenSynthChipsResponse['createdItems']>([]);
  const balances = (me.data ?? user)?.balances ?? [];
  const held = Math.floor(Number(balances.find((b) => b.currencyId === sale.data?.currencyId)?.amount ?? 0));
  const max = Math.min(held, MAX_CHIPS_PER_OPENING);

  const commence = async () => {
    try {
      const res = (await open.mutateAsync(Math.min(amount, max))) as OpenSynthChipsResponse;
      setCreated(res.createdItems);
      setAmount(1);
      toastSuccess(res.message);
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    }
  };

  return (
    <Stack maw={760} mx="auto" gap="md">
      <Title order={1} size="h2">
        Open Synth Chips
      </Title>
      <Card withBorder radius="md" p="lg">
        {max < 1 ? (
          <Text>
            You hold no synth chips. <Link to="/synthchips">Buy some</Link>
          </Text>
        ) : (
          <Stack gap="md">
            <Text>
              You hold <b data-testid="chips-held">{held}</b> chip(s). Open <b>{Math.min(amount, max)}</b> for{' '}
              {Math.min(amount, max) * 5} ships.
            </Text>
            <Slider
              min={1}
              max={Math.max(max, 1)}
              step={1}
              value={Math.min(amount, max)}
              onChange={setAmount}
              label={(v) => `${v}`}
              thumbLabel="Chips to open"
              marks={
                max > 1
                  ? [
                      { value: 1, label: '1' },
                      { value: max, label: String(max) },
                    ]
                  : []
              }
              mb="md"
            />
            <Group>
              <Button onClick={() => void commence()} loading={open.isPending}>
                Commence
              </Button>
            </Group>
          </Stack>
        )}
      </Card>
      {created.length > 0 && (
        <Card withBorder radius="md" p="lg" component="section" aria-labelledby="created-title">
          <Title order={2} size="h4" id="created-title" mb="xs">
            Ships created
          </Title>
          <Table striped aria-label="Ships created">
            <Table.Tbody>
              {created.map((s) => (
                <Table.Tr key={s._id} data-testid="created-ship">
                  <Table.Td w={56}>
                    <Image src={shipImage(s)} alt="" w={40} h={40} radius="sm" fallbackSrc="/favicon.svg" />
                  </Table.Td>
                  <Table.Td data-testid="ship-name">{s.name}</Table.Td>
                  {/* As wide as its rarity: never cut to "UNCOM…" on a phone. */}
                  <Table.Td ta="right" w="1%" style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      variant="light"
                      color={rarityColor(s.metadata.rarity)}
                      data-testid="ship-rarity"
                      // The label's own width is its minimum, so the 1% cell hugs it and never cuts it.
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {String(s.metadata.rarity ?? '')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}
