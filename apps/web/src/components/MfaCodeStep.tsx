/**
 * The second step of a sign-in (DESIGN §11.1), on the same screen as the first: the code from the
 * authenticator app, or through "Use a recovery code" a recovery code. `onSubmit` sends it; `onBack`
 * returns to the first step (a dead sign-in starts again there).
 */
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { isCompleteCode, MfaCodeField } from './MfaCodeField.tsx';

export function MfaCodeStep({
  busy,
  onSubmit,
  onBack,
  submitLabel = 'Verify',
}: {
  busy: boolean;
  onSubmit: (code: string) => Promise<void>;
  onBack: () => void;
  submitLabel?: string;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const complete = isCompleteCode(code, recovery);

  return (
    <form
      noValidate
      aria-label="Two-factor authentication"
      onSubmit={(e) => {
        e.preventDefault();
        if (complete && !busy) void onSubmit(code.trim());
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {recovery
            ? 'Enter one of the recovery codes you saved when you turned two-factor authentication on. Each works once.'
            : 'Open your authenticator app and enter the 6-digit code it shows for Starlight.'}
        </Text>
        <MfaCodeField
          key={recovery ? 'recovery' : 'app'}
          recovery={recovery}
          required
          autoFocus
          data-autofocus
          value={code}
          onChange={(e) => setCode(recovery ? e.currentTarget.value : e.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button type="submit" loading={busy} disabled={!complete}>
          {submitLabel}
        </Button>
        <Group justify="space-between" gap="xs">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setRecovery((r) => !r);
              setCode('');
            }}
          >
            {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
            Back
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
