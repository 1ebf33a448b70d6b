/**
 * DESIGN §11.1 (`ADMIN_MFA=required`): an admin whose session did not pass a second factor sees, in place
 * of the console, a notice that takes them to Settings' two-factor card to set one up; every admin route would
 * answer them 403 `Two-factor authentication is required for admins` anyway.
 */
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useMeSession } from '../../../lib/me.ts';

/** Where an admin sets up a second factor: Settings' security section. */
export const SECURITY_SETTINGS = { to: '/userconfig', hash: 'security' } as const;

/** The notice an admin without a second factor sees instead of the console. */
export function AdminMfaNotice() {
  return (
    <Alert
      color="orange"
      variant="light"
      radius="md"
      icon={<IconShieldLock size={20} aria-hidden />}
      title="Two-factor authentication required"
      data-testid="admin-mfa-notice"
    >
      <Stack gap="sm">
        <Text size="sm">
          Admins need two-factor authentication: set up an authenticator app or a passkey, then sign in again.
        </Text>
        <Group>
          <Button component={Link} {...SECURITY_SETTINGS} size="sm" color="orange">
            Set up two-factor authentication
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Renders `children` (the console) once the session may use it, else `AdminMfaNotice`. */
export function AdminMfaGate({ children }: { children: ReactNode }) {
  const session = useMeSession();
  if (session.isPending) return <Loader size="sm" aria-label="Checking the session" />;
  if (session.data?.adminMfaRequired && !session.data.secondFactor) return <AdminMfaNotice />;
  return children;
}
