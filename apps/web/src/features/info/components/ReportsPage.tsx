/** SPEC §2 /reports: the economy reports, by year. */
import { Stack, Text, Title } from '@mantine/core';
import { ReportsList } from './ReportsList.tsx';

export function ReportsPage() {
  return (
    <Stack maw={760} mx="auto">
      <div>
        <Title order={1}>Reports</Title>
        <Text c="dimmed" mt={4}>
          Quarterly reports of the Starlight economy, from the ledger's own figures.
        </Text>
      </div>
      <ReportsList />
    </Stack>
  );
}
