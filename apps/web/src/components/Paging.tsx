/** SPEC §4 paging: previous (to 1 from 2, decrements above 2, nothing on 1), next, the page and total. */
import { Button, Group, Text } from '@mantine/core';
import { formatTotal, nextPage, pageCount, previousPage } from '@starlight/shared';

export function Paging({
  page,
  limit,
  total,
  totalCapped = false,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  /** The server stopped counting at `total`: more pages follow, shown as "10,000+". */
  totalCapped?: boolean;
  onPage: (page: number) => void;
}) {
  const pages = pageCount(total, limit);
  return (
    // One row at any width: the buttons keep their size and the text between them wraps (a phone).
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(previousPage(page))}>
        Previous
      </Button>
      <Text size="sm" c="dimmed" ta="center" style={{ flex: 1, minWidth: 0 }}>
        Page {page.toLocaleString('en-GB')}
        {page <= pages || !totalCapped ? ` of ${formatTotal(pages, totalCapped)}` : ''} ·{' '}
        {formatTotal(total, totalCapped)} in all
      </Text>
      <Button
        size="xs"
        variant="default"
        disabled={page >= pages && !totalCapped}
        onClick={() => onPage(nextPage(page))}
      >
        Next
      </Button>
    </Group>
  );
}
