/**
 * Jumps of a long history (the member's transaction log, the admin's Tnx Logs): to a page by its number,
 * and to a date (the page holding the newest row at or before that day, which the server finds). Two
 * small forms on one row that wraps on a phone; Enter or Go applies each.
 */
import { Button, Group, NumberInput, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';

export function HistoryJump({
  pages,
  capped,
  onPage,
  onDate,
  busy = false,
}: {
  /** The pages of the list (at least 1); `capped`: more follow (the total stopped at a bound). */
  pages: number;
  capped: boolean;
  onPage: (page: number) => void;
  /** Goes to the page holding `date` ('YYYY-MM-DD'). */
  onDate: (date: string) => void;
  busy?: boolean;
}) {
  const [page, setPage] = useState<string | number>('');
  const [date, setDate] = useState('');
  const max = capped ? undefined : pages;
  const goPage = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(page);
    if (Number.isSafeInteger(n) && n >= 1) onPage(max === undefined ? n : Math.min(n, max));
  };
  const goDate = (e: FormEvent) => {
    e.preventDefault();
    if (/^\d{4}-\d{2}-\d{2}$/.test(date)) onDate(date);
  };
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="history-jump">
      <form onSubmit={goPage} noValidate aria-label="Go to page">
        <Group gap={6} align="flex-end" wrap="nowrap">
          <NumberInput
            label="Go to page"
            size="xs"
            w={110}
            min={1}
            max={max}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            value={page}
            onChange={setPage}
          />
          <Button type="submit" size="xs" variant="default">
            Go
          </Button>
        </Group>
      </form>
      <form onSubmit={goDate} noValidate aria-label="Go to date">
        <Group gap={6} align="flex-end" wrap="nowrap">
          <TextInput
            label="Go to date"
            type="date"
            size="xs"
            w={150}
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <Button type="submit" size="xs" variant="default" loading={busy}>
            Go
          </Button>
        </Group>
      </form>
    </Group>
  );
}
