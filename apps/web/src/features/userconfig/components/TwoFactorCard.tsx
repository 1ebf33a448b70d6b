/**
 * Settings, "Two-factor authentication" (DESIGN §11.1): enrol an authenticator app (a QR code, and the
 * secret to type in by hand), confirm with a first code, then see the ten recovery codes once (Copy,
 * Download). With it on: new recovery codes, or turning it off, each with a code.
 */
import { Badge, Button, Card, Code, CopyButton, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { TotpSetupResponse } from '@starlight/shared';
import { useState } from 'react';
import { isCompleteCode, MfaCodeField } from '../../../components/MfaCodeField.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { toastError, toastSuccess } from '../../../lib/notify.ts';
import { useRegenerateRecoveryCodes, useTotpDisable, useTotpEnable, useTotpSetup } from '../api/mfa.ts';
import { RecoveryCodes } from './RecoveryCodes.tsx';

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'confirm'; action: 'disable' | 'regenerate' };

/** The secret in groups of four, easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

export function TwoFactorCard({ on }: { on: boolean }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const disable = useTotpDisable();
  const regenerate = useRegenerateRecoveryCodes();

  const reset = (next: Step) => {
    setCode('');
    setRecovery(false);
    setStep(next);
  };

  const start = async () => {
    try {
      reset({ kind: 'enrolling', setup: await setup.mutateAsync() });
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  const submit = async () => {
    try {
      if (step.kind === 'enrolling') {
        const res = await enable.mutateAsync({ code });
        toastSuccess(res.message);
        reset({ kind: 'codes', codes: res.recoveryCodes });
      } else if (step.kind === 'confirm' && step.action === 'regenerate') {
        const res = await regenerate.mutateAsync({ code });
        toastSuccess(res.message);
        reset({ kind: 'codes', codes: res.recoveryCodes });
      } else if (step.kind === 'confirm') {
        toastSuccess((await disable.mutateAsync({ code })).message);
        reset({ kind: 'idle' });
      }
    } catch (err) {
      toastError(errorMessage(err));
    }
  };

  const busy = enable.isPending || disable.isPending || regenerate.isPending;
  const codeForm = (label: string, allowRecovery: boolean) => (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (isCompleteCode(code, recovery) && !busy) void submit();
      }}
    >
      <Stack gap="xs">
        <MfaCodeField
          key={recovery ? 'recovery' : 'app'}
          recovery={recovery}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(recovery ? e.currentTarget.value : e.currentTarget.value.replace(/\D/g, ''))}
        />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={busy} disabled={!isCompleteCode(code, recovery)}>
            {label}
          </Button>
          <Button variant="default" size="xs" onClick={() => reset({ kind: 'idle' })}>
            Cancel
          </Button>
          {allowRecovery && (
            <Button
              variant="subtle"
              size="xs"
              onClick={() => {
                setRecovery((r) => !r);
                setCode('');
              }}
            >
              {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="two-factor-title" id="security">
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4" id="two-factor-title">
            Two-factor authentication
          </Title>
          <Badge color={on ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
            {on ? 'On' : 'Off'}
          </Badge>
        </Group>
        {step.kind === 'codes' ? (
          <RecoveryCodes codes={step.codes} onDone={() => reset({ kind: 'idle' })} />
        ) : step.kind === 'enrolling' ? (
          <Stack gap="sm">
            <Text size="sm">
              1. Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy and the like).
            </Text>
            <Image src={step.setup.qrCode} alt="QR code for your authenticator app" w={200} h={200} radius="sm" />
            <Text size="sm">Can't scan it? Type this key into the app instead:</Text>
            <Group gap="xs" align="center">
              <Code data-testid="totp-secret" fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {grouped(step.setup.secret)}
              </Code>
              <CopyButton value={step.setup.secret}>
                {({ copy, copied }) => (
                  <Button variant="default" size="xs" onClick={copy} style={{ flexShrink: 0 }}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="sm">2. Enter the 6-digit code the app shows:</Text>
            {codeForm('Turn on', false)}
          </Stack>
        ) : step.kind === 'confirm' ? (
          <Stack gap="xs">
            <Text size="sm">
              {step.action === 'disable'
                ? 'Enter a code from your authenticator app (or a recovery code) to turn two-factor authentication off.'
                : 'Enter a code from your authenticator app (or a recovery code) to make new recovery codes. The old ones stop working.'}
            </Text>
            {codeForm(step.action === 'disable' ? 'Turn off' : 'Make new codes', true)}
          </Stack>
        ) : on ? (
          <>
            <Text size="sm" c="dimmed">
              Signing in, withdrawing, making an API key and changing your e-mail or password ask for a code from your
              authenticator app.
            </Text>
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => reset({ kind: 'confirm', action: 'regenerate' })}>
                New recovery codes
              </Button>
              <Button
                color="red"
                variant="light"
                size="xs"
                onClick={() => reset({ kind: 'confirm', action: 'disable' })}
              >
                Turn off
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Protect your account with a second step at sign-in: a code from an authenticator app on your phone.
            </Text>
            <Button w="fit-content" size="xs" loading={setup.isPending} onClick={() => void start()}>
              Set up authenticator app
            </Button>
          </>
        )}
      </Stack>
    </Card>
  );
}
