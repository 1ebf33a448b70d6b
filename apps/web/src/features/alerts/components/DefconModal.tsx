/** SPEC §2: the defcon notice, shown on load when the alert level is above 0. */
import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useDefconLevel } from '../api/get-defcon-level.ts';

export function DefconModal() {
  const { data } = useDefconLevel();
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  const level = data?.defconLvl ?? 0;
  const key = `${level}:${data?.defconMsg ?? ''}`;
  const opened = level > 0 && acknowledged !== key;
  return (
    <Modal opened={opened} onClose={() => setAcknowledged(key)} title={`Defcon Level ${level}`} centered zIndex={300}>
      <Text style={{ whiteSpace: 'pre-line' }}>{data?.defconMsg}</Text>
      <Group justify="flex-end" mt="md">
        <Button color="orange" onClick={() => setAcknowledged(key)}>
          Acknowledged
        </Button>
      </Group>
    </Modal>
  );
}
