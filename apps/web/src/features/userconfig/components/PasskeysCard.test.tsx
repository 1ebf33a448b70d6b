/**
 * Settings → Passkeys against a mocked API: in a browser without WebAuthn the card says why and asks the
 * server nothing; with it, the list (added, last used), and Remove only after the confirmation, which
 * sends the passkey's id.
 */
import { messageResponse, passkeysResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';

const LAPTOP = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'Laptop',
  credentialId: 'Y3JlZA',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: '2026-01-03T11:00:00.000Z',
};

beforeEach(() => useSession.setState({ user: testUser('alice'), token: 'session' }));
afterEach(() => {
  Reflect.deleteProperty(window, 'PublicKeyCredential');
});

describe('Passkeys card', () => {
  it('says why passkeys are unavailable in a browser without WebAuthn', async () => {
    renderWithProviders(<PasskeysCard />);
    expect(await screen.findByText('This browser does not support passkeys.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('lists the passkeys and removes one only after the confirmation', async () => {
    Object.defineProperty(window, 'PublicKeyCredential', {
      value: function PublicKeyCredential() {},
      configurable: true,
    });
    let list = [LAPTOP];
    const removed: unknown[] = [];
    server.use(
      answers.get('/user/passkeys', passkeysResponse, () => ({ passkeys: list, message: 'OK' })),
      answers.post('/user/passkeys/remove', messageResponse, async ({ request }) => {
        removed.push(await request.json());
        list = [];
        return { message: 'Passkey removed' };
      }),
    );
    renderWithProviders(<PasskeysCard />);
    const row = await screen.findByRole('listitem', { name: 'Laptop' });
    expect(row).toHaveTextContent('last used');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(await screen.findByRole('button', { name: 'Keep it' }));
    expect(removed).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(removed).toEqual([{ _id: LAPTOP._id }]));
    expect(await screen.findByText('You have no passkeys yet.')).toBeInTheDocument();
  });
});
