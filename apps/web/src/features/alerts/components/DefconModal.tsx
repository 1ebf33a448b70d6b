/** SPEC §2: the defcon notice, shown when the alert level is above 0 (on load, and live when it changes). */
import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useDefcon } from '../../../lib/defcon.ts';

export function DefconModal() {
  const data = useDefcon();
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  const level = data?.defconLvl ?? 0;
  const key = `${level}:${data?.defconMsg ?? ''}`;
  const opened = level > 0 && acknowledged !== key;
  return (
    <Modal opened={opened} onClose={() => setAcknowledged(key)} title={`Defcon Level ${level}`} centered zIndex={300}>
      <Text style={{ whiteSpace: 'pre-line' }}>{data?.defconMsg}</Text>
      <Group justify="flex-end" mt="md">
        {/* autoContrast: dark words on the orange, which white ones fail (axe color-contrast). */}
        <Button color="orange" autoContrast onClick={() => setAcknowledged(key)}>
          Acknowledged
        </Button>
      </Group>
    </Modal>
  );
}
