/** SPEC §2 /games: one game card with its description and Play Now (an external site). */
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay, IconRocket } from '@tabler/icons-react';

/** Where Orion's Reach is played (an outside site). */
const ORIONS_REACH_URL = 'https://orionsreach.example.com';

export function GamesPage() {
  return (
    <Stack maw={760} mx="auto">
      <Title order={1}>Games</Title>
      <Card withBorder radius="md" p="lg">
        <Group gap="sm" mb="xs">
          <IconRocket size={28} color="var(--mantine-color-yellow-4)" aria-hidden />
          <Title order={2} size="h3">
            Orion's Reach
          </Title>
          <Badge variant="light">Beta</Badge>
        </Group>
        <Text>
          Crew a salvaged ship, chart the Reach and bring back what you find. Missions pay Starnote, the ship items you
          open from synth chips fly with you, and your Starlight account keeps everything you earn.
        </Text>
        <Button
          component="a"
          href={ORIONS_REACH_URL}
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconPlayerPlay size={16} />}
          mt="md"
          w="fit-content"
        >
          Play Now
        </Button>
      </Card>
    </Stack>
  );
}
