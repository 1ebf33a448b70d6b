/** A Quantum Hub panel: a card titled for screen readers (its heading names the section), a control beside the title. */
import { Card, Group, SegmentedControl, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PanelCard({
  id,
  title,
  control,
  children,
}: {
  /** The heading's id (the section's accessible name). */
  id: string;
  title: ReactNode;
  control?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {control}
      </Group>
      {children}
    </Card>
  );
}

/** A small switch between a panel's views; `options` name each view. */
export function ViewSwitch<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      value={value}
      onChange={(v) => onChange(options.find((o) => o.value === v)?.value ?? value)}
      data={options}
    />
  );
}
