/** SPEC §2 Holdings, Game Items tab: a collection selector and item cards; empty until items exist. */
import { Card, Select, Stack, Text } from '@mantine/core';

export function GameItems() {
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Select label="Collection" placeholder="No collections yet" data={[]} disabled />
        <Text c="dimmed">No Data</Text>
        <Text size="sm" c="dimmed">
          Ship items from synth chips and creator collections will appear here.
        </Text>
      </Stack>
    </Card>
  );
}
