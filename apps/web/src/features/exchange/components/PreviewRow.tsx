/** One label-value row of the create-order form's previews: the label dimmed, the value's digits aligned. */
import { Group, Text } from '@mantine/core';

export function PreviewRow({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}>
        {value}
      </Text>
    </Group>
  );
}
