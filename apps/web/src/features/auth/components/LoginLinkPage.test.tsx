/**
 * /loginlink/{token} (DESIGN §8) against a mocked API: the page follows the link once as it opens, keeps
 * the session and opens the dashboard; a used or unknown link (the server's 400) and a malformed one say
 * so in words, with the way back to sign in, and keep the member signed out.
 */
import { authResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { answers, refuse } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { BAD_LOGIN_LINK, LoginLinkPage } from './LoginLinkPage.tsx';

const TOKEN = 'a'.repeat(192);

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/loginlink/$token', () => {
  it('signs in with the token once and opens the dashboard', async () => {
    const sent: unknown[] = [];
    server.use(
      answers.post('/user/loginLink', authResponse, async ({ request }) => {
        sent.push(await request.json());
        return { user: testUser('alice'), token: 'linked-session', message: 'Welcome back, alice' };
      }),
    );
    renderRoute('/loginlink/$token', LoginLinkPage, ['/dashboard', '/login'], `/loginlink/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Page at /dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, alice')).toBeInTheDocument();
    expect(sent).toEqual([{ token: TOKEN }]);
    expect(useSession.getState().token).toBe('linked-session');
  });

  it('says a used link no longer works and offers sign-in', async () => {
    server.use(answers.post('/user/loginLink', authResponse, () => refuse(400, 'This link is invalid or has expired')));
    renderRoute('/loginlink/$token', LoginLinkPage, ['/dashboard', '/login'], `/loginlink/${TOKEN}`);
    expect(await screen.findByText(BAD_LOGIN_LINK)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(useSession.getState().token).toBeNull();
  });

  it('says a malformed link does not work without asking the server', async () => {
    renderRoute('/loginlink/$token', LoginLinkPage, ['/dashboard', '/login'], '/loginlink/abc');
    expect(await screen.findByText(BAD_LOGIN_LINK)).toBeInTheDocument();
  });
});
