/**
 * The frame of an admin list (SPEC §2 User Logs, Access Logs, Admin Logs): title, filters with a record
 * limit and Search, paging at the top and bottom, the table, and SPEC's empty text.
 */
import { Button, Card, Group, NativeSelect, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { RECORD_LIMITS } from '../lib/use-paged-filters.ts';
import { Paging } from './Paging.tsx';

export interface PagedTableCardProps {
  title: string;
  /** The filter inputs (the record limit is added first). */
  filters: ReactNode;
  onSearch: () => void;
  searching: boolean;
  limit: number;
  onLimit: (limit: number) => void;
  page: number;
  total: number;
  /** The server stopped counting at `total`: shown as "10,000+", Next stays on. */
  totalCapped?: boolean | undefined;
  onPage: (page: number) => void;
  columns: string[];
  /** One array of cells per row, with its key; undefined while the first page loads. */
  rows: Array<{ key: string; cells: ReactNode[] }> | undefined;
  empty: string;
  /** Beside Search: e.g. "Export CSV" with the applied filters. */
  actions?: ReactNode;
}

export function PagedTableCard(props: PagedTableCardProps) {
  const {
    title,
    filters,
    onSearch,
    searching,
    limit,
    onLimit,
    page,
    total,
    totalCapped,
    onPage,
    columns,
    rows,
    empty,
    actions,
  } = props;
  const id = `${title.toLowerCase().replace(/\W+/g, '-')}-title`;
  const paging = <Paging page={page} limit={limit} total={total} totalCapped={totalCapped ?? false} onPage={onPage} />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch();
  };
  return (
    <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Title order={3} id={id}>
          {title}
        </Title>
        <form onSubmit={submit} noValidate>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" style={{ alignItems: 'start' }}>
            <NativeSelect
              label="Record limit"
              data={RECORD_LIMITS}
              value={String(limit)}
              onChange={(e) => onLimit(Number(e.currentTarget.value))}
            />
            {filters}
          </SimpleGrid>
          <Group mt="sm" gap="sm">
            <Button type="submit" leftSection={<IconSearch size={16} />} loading={searching}>
              Search
            </Button>
            {actions}
          </Group>
        </form>
        {rows === undefined ? (
          <Skeleton h={120} />
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {empty}
          </Text>
        ) : (
          <>
            {paging}
            {/* Focusable, so a keyboard can scroll the table sideways on a narrow screen. */}
            <Table.ScrollContainer
              minWidth={720}
              scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'group', 'aria-label': `${title} table` } }}
            >
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c}>{c}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.key}>
                      {r.cells.map((cell, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                        <Table.Td key={i}>{cell}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {paging}
          </>
        )}
      </Stack>
    </Card>
  );
}
