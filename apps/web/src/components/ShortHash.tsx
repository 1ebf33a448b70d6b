/**
 * A long hash or address (a wallet, a transaction reference) shortened to its first 6 and last 4
 * characters, the whole in its title (a tooltip on hover) and a button that copies it whole. Short
 * values (12 characters or fewer) show whole.
 */
import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** `value` as `0xAbCd…EF01`: its first 6 and last 4 characters, or whole when 12 characters or fewer. */
export function shortHash(value: string): string {
  return value.length <= 12 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`;
}

/** `value` shortened (`shortHash`), whole in its title, with a copy button labelled `Copy {label}`. */
export function ShortHash({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={2} wrap="nowrap">
      <Text size="xs" ff="monospace" title={value} style={{ whiteSpace: 'nowrap' }}>
        {shortHash(value)}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
            <ActionIcon
              size="sm"
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={`Copy ${label}`}
            >
              {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
