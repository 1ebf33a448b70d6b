/** Item data (SPEC §3: nested objects of text, number or boolean values) as `key: value` badges and rows. */
import { Badge, Group } from '@mantine/core';

/** Item data flattened to `key: value` rows (nested keys joined with a dot). */
export function itemDataEntries(data: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  return Object.entries(data).flatMap(([k, v]) =>
    v !== null && typeof v === 'object'
      ? itemDataEntries(v as Record<string, unknown>, `${prefix}${k}.`)
      : [[`${prefix}${k}`, String(v)] as [string, string]],
  );
}

/** The first six entries of `data` as small badges that wrap. */
export function ItemDataBadges({ data }: { data: Record<string, unknown> }) {
  const rows = itemDataEntries(data).slice(0, 6);
  return (
    <Group gap={4}>
      {rows.map(([k, v]) => (
        <Badge key={k} variant="light" color="gray" tt="none" size="sm">
          {k}: {v}
        </Badge>
      ))}
    </Group>
  );
}
