/**
 * SPEC §2 Forge Logs sub-tab: the member's processes, newest first, 10 a page from page 1 (record limit
 * 10, 20 or 50), with SPEC §4's row actions: Claim once finished, Cancel in the first 10 minutes,
 * `...Forging` / `...Melting` while running, Forged / Melted / Cancelled once ended, and a live
 * countdown to the finish date. After `Process finished` or `Process cancelled` the list reloads from page 1.
 */
import { Badge, Button, Card, Group, NativeSelect, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ForgeProcess, formatDate } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { Paging } from '../../../components/Paging.tsx';
import { useCurrencies } from '../../../lib/currencies.ts';
import { toastSuccess } from '../../../lib/notify.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useEndProcess } from '../api/end-process.ts';
import { useForgeProcesses } from '../api/get-forge-processes.ts';
import { countdown, processAction } from '../utils/process-action.ts';
import { forgeSideText } from '../utils/side-text.ts';

const LIMITS = ['10', '20', '50'];

/** The clock of the countdowns: the time now, ticking every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function ActionCell({
  process,
  now,
  onEnd,
  busy,
}: {
  process: ForgeProcess;
  now: number;
  onEnd: (cancel: boolean) => void;
  busy: boolean;
}) {
  const action = processAction(process, now);
  const name = process.recipe.name;
  if (action.kind === 'claim')
    return (
      <Button size="compact-sm" color="teal" onClick={() => onEnd(false)} loading={busy} aria-label={`Claim ${name}`}>
        Claim
      </Button>
    );
  if (action.kind === 'cancel')
    return (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{action.label}</Text>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          onClick={() => onEnd(true)}
          loading={busy}
          aria-label={`Cancel ${name}`}
          title={`Cancel possible for ${countdown(action.closesAt, now)}`}
        >
          Cancel
        </Button>
      </Group>
    );
  const ended = process.state !== 1;
  return ended ? (
    <Badge variant="light" color={action.label === 'Cancelled' ? 'gray' : 'teal'}>
      {action.label}
    </Badge>
  ) : (
    <Text size="sm">{action.label}</Text>
  );
}

export function ForgeLogs() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const processes = useForgeProcesses({ paging: { limit, page } });
  const end = useEndProcess();
  const { byId } = useCurrencies();
  const now = useNow();
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [ending, setEnding] = useState<string | null>(null);

  // SPEC §4: a failed page steps back one.
  useErrorToast(processes.error, processes.errorUpdatedAt, () => setPage((p) => Math.max(1, p - 1)));

  const onEnd = async (p: ForgeProcess, cancel: boolean) => {
    setEnding(p._id);
    try {
      const res = await end.mutateAsync({ processId: p._id, cancel });
      toastSuccess(res.message);
      if (/Process (finished|cancelled)/.test(res.message)) {
        setLimit(10);
        setPage(1);
      }
    } catch {
      // The mutation toasted the failure (useIdempotentMutation).
    } finally {
      setEnding(null);
    }
  };

  const rows = processes.data?.processes;
  const total = processes.data?.total ?? 0;
  const paging = (
    <Paging
      page={page}
      limit={limit}
      total={total}
      totalCapped={processes.data?.totalCapped ?? false}
      onPage={setPage}
    />
  );
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="forge-logs-title">
      <Stack gap="sm">
        <Group justify="space-between" align="end">
          <Title order={3} size="h4" id="forge-logs-title">
            Forge Logs
          </Title>
          <NativeSelect
            label="Records"
            data={LIMITS}
            value={String(limit)}
            onChange={(e) => {
              setLimit(Number(e.currentTarget.value));
              setPage(1);
            }}
            w={100}
          />
        </Group>
        {rows === undefined ? (
          <Skeleton h={120} />
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No logs found
          </Text>
        ) : isPhone ? (
          <>
            {paging}
            <Stack gap="xs" component="ul" aria-label="Forge processes" m={0} p={0} style={{ listStyle: 'none' }}>
              {rows.map((p) => (
                <Card key={p._id} component="li" withBorder radius="sm" p="sm" data-testid="forge-process-row">
                  <Stack gap={4}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text fw={500}>{p.recipe.name}</Text>
                      {p.state === 1 && (
                        <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {countdown(Date.parse(p.finishDate), now)}
                        </Text>
                      )}
                    </Group>
                    <Text size="sm">
                      {forgeSideText(p.input, p.quantity, byId.get(p.input.currencyId))} →{' '}
                      {forgeSideText(p.output, p.quantity, byId.get(p.output.currencyId))}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDate(p.createdAt)} → {formatDate(p.finishDate)}
                    </Text>
                    <ActionCell
                      process={p}
                      now={now}
                      busy={ending === p._id}
                      onEnd={(cancel) => void onEnd(p, cancel)}
                    />
                  </Stack>
                </Card>
              ))}
            </Stack>
            {paging}
          </>
        ) : (
          <>
            {paging}
            <Table.ScrollContainer minWidth={760}>
              <Table striped verticalSpacing="xs" aria-label="Forge processes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Process</Table.Th>
                    <Table.Th>Input</Table.Th>
                    <Table.Th>Output</Table.Th>
                    <Table.Th>Finishes</Table.Th>
                    <Table.Th>Time left</Table.Th>
                    <Table.Th>Action</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((p) => (
                    <Table.Tr key={p._id} data-testid="forge-process-row">
                      <Table.Td>{formatDate(p.createdAt)}</Table.Td>
                      <Table.Td fw={500}>{p.recipe.name}</Table.Td>
                      <Table.Td>{forgeSideText(p.input, p.quantity, byId.get(p.input.currencyId))}</Table.Td>
                      <Table.Td>{forgeSideText(p.output, p.quantity, byId.get(p.output.currencyId))}</Table.Td>
                      <Table.Td>{formatDate(p.finishDate)}</Table.Td>
                      <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {p.state === 1 ? countdown(Date.parse(p.finishDate), now) : '—'}
                      </Table.Td>
                      <Table.Td>
                        <ActionCell
                          process={p}
                          now={now}
                          busy={ending === p._id}
                          onEnd={(cancel) => void onEnd(p, cancel)}
                        />
                      </Table.Td>
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
