/**
 * User Control's lookup by nickname: a field and a button; `onLookup` gets the trimmed nickname when the
 * form is sent (Enter or the button), never an empty one.
 */
import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

export function NicknameLookup({ action, onLookup }: { action: string; onLookup: (nickname: string) => void }) {
  const [typed, setTyped] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onLookup(typed.trim());
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Nickname"
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 160 }}
        />
        <Button type="submit" leftSection={<IconSearch size={16} />} disabled={typed.trim() === ''}>
          {action}
        </Button>
      </Group>
    </form>
  );
}
