/** SPEC §2 /reports (and the Media page's Reports tab): an accordion by year with the report links. */
import { Accordion, Anchor, List, Text } from '@mantine/core';

/** The reports that ship with the app (apps/web/public/docs/reports), by year. */
const REPORTS: Array<{ year: string; reports: Array<{ title: string; href: string }> }> = [
  {
    year: '2022',
    reports: [
      { title: 'Q3 2022 economy report', href: '/docs/reports/2022-q3.html' },
      { title: 'Q4 2022 economy report', href: '/docs/reports/2022-q4.html' },
    ],
  },
  { year: '2023', reports: [] },
];

export function ReportsList() {
  return (
    <Accordion variant="separated" radius="md" defaultValue="2022">
      {REPORTS.map(({ year, reports }) => (
        <Accordion.Item key={year} value={year}>
          <Accordion.Control>{year}</Accordion.Control>
          <Accordion.Panel>
            {reports.length === 0 ? (
              <Text size="sm" c="dimmed">
                No reports for {year} yet
              </Text>
            ) : (
              <List spacing="xs">
                {reports.map((r) => (
                  <List.Item key={r.href}>
                    <Anchor href={r.href} target="_blank" rel="noopener">
                      {r.title}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
