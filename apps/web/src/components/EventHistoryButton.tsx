/**
 * SPEC §2 Checkout Logs, Event History: a button opening a dialog of the provider events (type and
 * received date) of one checkout, or the text `None` when it has none.
 */
import { Button, Modal, Table, Text } from '@mantine/core';
import { formatDate } from '@starlight/shared';
import { useState } from 'react';

export function EventHistoryButton({
  events,
  label,
}: {
  events: Array<{ eventType: string; dateReceived: string }>;
  label: string;
}) {
  const [open, setOpen] = useState(false);
  if (events.length === 0) return <Text size="sm">None</Text>;
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setOpen(true)} aria-label={`Event History of ${label}`}>
        Events ({events.length})
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Event History">
        <Table striped aria-label="Event History">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Received</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a provider may send one event type twice
              <Table.Tr key={i}>
                <Table.Td>{e.eventType}</Table.Td>
                <Table.Td>{formatDate(e.dateReceived)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </>
  );
}
