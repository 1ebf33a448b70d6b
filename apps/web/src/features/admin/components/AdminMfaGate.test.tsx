/**
 * The admin console's two-factor gate (DESIGN §11.1): under `ADMIN_MFA=required` an admin whose session
 * has no second factor sees the notice and its link to Settings' two-factor card instead of the console; with
 * one, or when the server does not require it, the console.
 */
import { type MeResponse, meResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { AdminMfaGate } from './AdminMfaGate.tsx';

const admin = testUser('root', { role: 'admin' });

function answerMe(session: MeResponse['session']) {
  server.use(
    answers.get('/user/me', meResponse, () => ({ user: admin, ...(session ? { session } : {}), message: 'OK' })),
  );
}

const Gated = () => (
  <AdminMfaGate>
    <p>The console</p>
  </AdminMfaGate>
);

beforeEach(() => useSession.setState({ user: admin, token: 'admin-session' }));

describe('AdminMfaGate', () => {
  it('shows the notice, not the console, to an admin without a second factor, and links to Settings', async () => {
    answerMe({ secondFactor: false, adminMfaRequired: true });
    const router = renderRoute('/dashboard', Gated, ['/userconfig']);
    expect(
      await screen.findByText(
        'Admins need two-factor authentication: set up an authenticator app or a passkey, then sign in again.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('The console')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByRole('heading', { name: 'Page at /userconfig' })).toBeInTheDocument();
    expect(router.state.location.hash).toBe('security');
  });

  it('shows the console to a session that passed a second factor', async () => {
    answerMe({ secondFactor: true, adminMfaRequired: true });
    renderRoute('/dashboard', Gated);
    expect(await screen.findByText('The console')).toBeInTheDocument();
    expect(screen.queryByTestId('admin-mfa-notice')).not.toBeInTheDocument();
  });

  it('shows the console when the server does not require it (ADMIN_MFA=optional)', async () => {
    answerMe({ secondFactor: false, adminMfaRequired: false });
    renderRoute('/dashboard', Gated);
    expect(await screen.findByText('The console')).toBeInTheDocument();
  });
});
