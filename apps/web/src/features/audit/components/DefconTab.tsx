/**
 * SPEC §2 Admin Console, Defcon Level: a level select 0-4 and a message, Submit. The level every visitor
 * sees changes at once (the server accepts 0-5, SPEC §5; the console offers SPEC's 0-4). Below it, the
 * admin's broadcast (`BroadcastCard`, DESIGN §11.3).
 */
import { Button, Card, NativeSelect, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useSetDefconLevel } from '../api/set-defcon-level.ts';
import { BroadcastCard } from './BroadcastCard.tsx';

const LEVELS = ['0', '1', '2', '3', '4'];

export function DefconTab() {
  const setLevel = useSetDefconLevel();
  const [level, setLevelValue] = useState('0');
  const [message, setMessage] = useState('');
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      toastSuccess((await setLevel.mutateAsync({ defconLvl: Number(level), defconMsg: message.trim() })).message);
    } catch (err) {
      toastError(errorMessage(err));
    }
  };
  return (
    <Stack>
      <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="defcon-title">
        <form onSubmit={submit} noValidate>
          <Stack maw={520}>
            <Title order={3} id="defcon-title">
              Defcon Level
            </Title>
            <Text size="sm" c="dimmed">
              Above 0, every open page shows the level and this message in a notice. 0 means all is well.
            </Text>
            <NativeSelect
              label="Level"
              data={LEVELS}
              value={level}
              onChange={(e) => setLevelValue(e.currentTarget.value)}
            />
            <Textarea
              label="Message"
              autosize
              minRows={2}
              maxLength={1000}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
            />
            <Button type="submit" w="fit-content" loading={setLevel.isPending}>
              Submit
            </Button>
          </Stack>
        </form>
      </Card>
      <BroadcastCard />
    </Stack>
  );
}
