/**
 * /userconfig's cards (SPEC §2 Settings) against a mocked API: Change password with SPEC's 'passwords do
 * not match', the body it sends (with the API keys checkbox) and the fresh session it keeps, 'Incorrect
 * password' at its field; the Private checkbox's Update Status; and the API keys card (empty state, a new
 * key's secret shown once, the list without secrets).
 */
import {
  type ApiKeyInfo,
  apiKeyResponse,
  apiKeysResponse,
  createApiKeyResponse,
  type UpdateProfileResponse,
  updateProfileResponse,
} from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { ApiKeyPanel } from './ApiKeyPanel.tsx';
import { ApiKeysCard } from './ApiKeysCard.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { PrivacyCard } from './PrivacyCard.tsx';

/** Answers updateProfile with `answer`; the bodies it receives are returned. */
function mockUpdate(answer: () => AnswerOf<typeof updateProfileResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.post('/user/updateProfile', updateProfileResponse, async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

async function fillPasswords(current: string, next: string, repeat: string) {
  const user = userEvent.setup();
  for (const [label, text] of [
    [/^Current password/, current],
    [/^New password/, next],
    [/^Repeat new password/, repeat],
  ] as const) {
    await user.click(screen.getByLabelText(label));
    await user.paste(text);
  }
  return user;
}

beforeEach(() => useSession.setState({ user: testUser('alice'), token: 'old-session' }));

describe('Change password', () => {
  it("says 'passwords do not match' and keeps the button off until they do", async () => {
    renderWithProviders(<ChangePasswordCard />);
    await fillPasswords('Old!pass1', 'New!pass1', 'New!pass2');
    expect(screen.getByText('passwords do not match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeDisabled();
  });

  it('sends the new and current passwords, toasts the answer and keeps the fresh session', async () => {
    const changed: UpdateProfileResponse = {
      user: testUser('alice'),
      token: 'fresh-session',
      message: 'Your account has been updated',
    };
    const sent = mockUpdate(() => changed);
    renderWithProviders(<ChangePasswordCard />);
    const user = await fillPasswords('Old!pass1', 'New!pass1', 'New!pass1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your account has been updated')).toBeInTheDocument();
    expect(sent).toEqual([{ password: 'New!pass1', currentPassword: 'Old!pass1', revokeApiKeys: true }]);
    expect(useSession.getState().token).toBe('fresh-session');
    await waitFor(() => expect(screen.getByLabelText(/^Current password/)).toHaveValue(''));
  });

  it('asks whether to revoke the API keys too: checked by default, and sends what the member chose', async () => {
    const sent = mockUpdate(() => ({
      user: testUser('alice'),
      token: 'fresh',
      message: 'Your account has been updated',
    }));
    renderWithProviders(<ChangePasswordCard />);
    const user = await fillPasswords('Old!pass1', 'New!pass1', 'New!pass1');
    const revoke = screen.getByRole('checkbox', { name: 'Also revoke my API keys' });
    expect(revoke).toBeChecked();
    await user.click(revoke);
    expect(revoke).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your account has been updated')).toBeInTheDocument();
    expect(sent).toEqual([{ password: 'New!pass1', currentPassword: 'Old!pass1', revokeApiKeys: false }]);
  });

  it("puts 'Incorrect password' at the current password", async () => {
    mockUpdate(() => refuse(400, 'Incorrect password'));
    renderWithProviders(<ChangePasswordCard />);
    const user = await fillPasswords('wrong', 'New!pass1', 'New!pass1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription('Incorrect password'),
    );
    expect(useSession.getState().token).toBe('old-session');
  });
});

describe('Privacy', () => {
  it('sends the Private flag on Update Status and keeps the account the server answers', async () => {
    const sent = mockUpdate(() => ({ user: testUser('alice', { isAnonymous: true }), message: 'Status updated' }));
    renderWithProviders(<PrivacyCard isAnonymous={false} />);
    const user = userEvent.setup();
    expect(screen.getByRole('checkbox', { name: 'Private' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Private' }));
    await user.click(screen.getByRole('button', { name: 'Update Status' }));
    expect(await screen.findByText('Status updated')).toBeInTheDocument();
    expect(sent).toEqual([{ isAnonymous: true }]);
    expect(useSession.getState().user?.isAnonymous).toBe(true);
  });
});

describe('Default API key (SPEC panel)', () => {
  it('shows the key masked until Show', async () => {
    server.use(answers.get('/user/getApiKey', apiKeyResponse, () => ({ apiKey: 'sk_abcdef123456', message: 'OK' })));
    renderWithProviders(<ApiKeyPanel />);
    const shown = screen.getByTestId('api-key');
    await waitFor(() => expect(shown).toHaveTextContent(`sk_${'•'.repeat(24)}`));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show' }));
    expect(shown).toHaveTextContent('sk_abcdef123456');
  });

  it("says 'No Key' and offers New Key, which toasts the server's message", async () => {
    let key: string | null = null;
    server.use(
      answers.get('/user/getApiKey', apiKeyResponse, () => ({ apiKey: key, message: 'OK' })),
      answers.post('/user/newApiKey', apiKeyResponse, () => {
        key = 'sk_new';
        return { apiKey: key, message: 'A new API key was made' };
      }),
    );
    renderWithProviders(<ApiKeyPanel />);
    expect(await screen.findByText('No Key')).toBeInTheDocument();
    expect(screen.getByText('You have no key yet: press New Key to make one.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable' })).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'New Key' }));
    expect(await screen.findByText('A new API key was made')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Disable' })).toBeEnabled());
  });
});

describe('API keys', () => {
  it('shows the empty state, then a new key once and the list without its secret', async () => {
    const keys: ApiKeyInfo[] = [];
    const sent: unknown[] = [];
    const made: ApiKeyInfo = {
      _id: 'a'.repeat(24),
      name: 'Bot',
      prefix: 'sl_abcdefgh',
      scopes: ['read', 'trade'],
      allowedIps: ['203.0.113.7'],
      expiresAt: null,
      createdAt: '2026-01-02T03:04:05.000Z',
      lastUsedAt: null,
    };
    server.use(
      answers.get('/user/apiKeys', apiKeysResponse, () => ({ apiKeys: keys, message: 'OK' })),
      answers.post('/user/apiKeys/create', createApiKeyResponse, async ({ request }) => {
        sent.push(await request.json());
        keys.push(made);
        return { apiKey: made, secret: 'sl_abcdefghSECRET', message: 'Your API key is ready' };
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ApiKeysCard />);
    expect(await screen.findByTestId('api-keys-empty')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New key' }));
    await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'Bot');
    await user.click(screen.getByRole('checkbox', { name: /trade/ }));
    await user.type(screen.getByRole('textbox', { name: /Allowed addresses/ }), '203.0.113.7');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByTestId('api-key-secret')).toHaveTextContent('sl_abcdefghSECRET');
    expect(sent).toEqual([{ name: 'Bot', scopes: ['read', 'trade'], allowedIps: ['203.0.113.7'] }]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const row = await screen.findByRole('listitem', { name: 'Bot' });
    expect(row).toHaveTextContent('sl_abcdefgh…');
    expect(row).toHaveTextContent('From 203.0.113.7');
    expect(screen.queryByText('sl_abcdefghSECRET')).not.toBeInTheDocument();
  });
});
