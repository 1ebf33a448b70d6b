/**
 * /register and /login (SPEC §2) as routes against a mocked API: the button that reads 'Complete all
 * fields' until every field is in, the live 'Passwords do not match' hint, SPEC §5's field messages in
 * words before anything is sent, the body sent (confirmation and empty referrer dropped), the session
 * kept and /dashboard opened on success, and the server's refusal in a toast; for an account with a
 * second factor, the code step on the same screen (DESIGN §11.1).
 */
import { authResponse, loginResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testUser } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { LoginPage } from './LoginPage.tsx';
import { RegisterPage } from './RegisterPage.tsx';

const STRONG = 'Str0ng!pass';

/** Puts `text` into `field` at once (typing it key by key re-validates the whole form at each key). */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Answers `path` with `answer`; the bodies it receives are returned. */
function mockAuth(path: '/user/register', answer: () => AnswerOf<typeof authResponse>): unknown[];
function mockAuth(path: '/user/login', answer: () => AnswerOf<typeof loginResponse>): unknown[];
function mockAuth(path: '/user/register' | '/user/login', answer: () => AnswerOf<typeof loginResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.post(path, path === '/user/login' ? loginResponse : authResponse, async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

const welcome = (nickname: string, message: string) => () => ({
  user: testUser(nickname),
  token: 'new-session',
  message,
});

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/register', () => {
  it('waits for every field, then sends the account without the confirmation and opens the dashboard', async () => {
    const sent = mockAuth('/user/register', welcome('alice', 'Welcome to Starlight'));
    const router = renderRoute('/register', () => <RegisterPage />, ['/dashboard', '/login']);
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Complete all fields' })).toBeDisabled();
    await fill(user, screen.getByRole('textbox', { name: /Nickname/ }), 'alice');
    await fill(user, screen.getByRole('textbox', { name: /E-mail/ }), 'alice@example.test');
    await fill(user, screen.getByLabelText(/^Password/), STRONG);
    await fill(user, screen.getByLabelText(/^Confirm password/), `${STRONG}x`);
    expect(screen.getByRole('status')).toHaveTextContent('Passwords do not match');
    expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
    await user.type(screen.getByLabelText(/^Confirm password/), '{Backspace}');
    expect(screen.getByRole('status')).toHaveTextContent('Passwords match');

    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Page at /dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome to Starlight')).toBeInTheDocument();
    expect(sent).toEqual([{ nickname: 'alice', email: 'alice@example.test', password: STRONG }]);
    expect(useSession.getState().token).toBe('new-session');
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it("says SPEC §5's rule at each field and sends nothing", async () => {
    const sent = mockAuth('/user/register', welcome('alice', 'Welcome to Starlight'));
    renderRoute('/register', () => <RegisterPage />, ['/login']);
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Complete all fields' });
    await fill(user, screen.getByRole('textbox', { name: /Nickname/ }), 'a!');
    await fill(user, screen.getByRole('textbox', { name: /E-mail/ }), 'not-an-address');
    await fill(user, screen.getByLabelText(/^Password/), 'weak');
    await fill(user, screen.getByLabelText(/^Confirm password/), 'weak');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Nickname must be 3 to 32 letters or digits')).toBeInTheDocument();
    expect(screen.getByText('E-mail must be a valid address, like name@example.com')).toBeInTheDocument();
    expect(screen.getByText('Password not strong enough')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Nickname/ })).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal, in words at its field", async () => {
    mockAuth('/user/register', () =>
      refuse(400, '"nickname" contains an invalid value', [
        { field: 'nickname', message: '"nickname" contains an invalid value' },
      ]),
    );
    renderRoute('/register', () => <RegisterPage referrer="bob" />, ['/dashboard', '/login']);
    const user = userEvent.setup();
    expect(await screen.findByRole('textbox', { name: /Referrer/ })).toHaveValue('bob');
    await fill(user, screen.getByRole('textbox', { name: /Nickname/ }), 'alice');
    await fill(user, screen.getByRole('textbox', { name: /E-mail/ }), 'alice@example.test');
    await fill(user, screen.getByLabelText(/^Password/), STRONG);
    await fill(user, screen.getByLabelText(/^Confirm password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getAllByText('Nickname must be 3 to 32 letters or digits').length).toBeGreaterThanOrEqual(2),
    );
    expect(screen.queryByRole('heading', { name: 'Page at /dashboard' })).not.toBeInTheDocument();
  });
});

describe('/login', () => {
  it('signs in with the trimmed nickname and opens the dashboard', async () => {
    const sent = mockAuth('/user/login', welcome('alice', 'Welcome back'));
    renderRoute('/login', LoginPage, ['/dashboard', '/register']);
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Complete all fields' })).toBeDisabled();
    await fill(user, screen.getByRole('textbox', { name: /Nickname or e-mail/ }), ' alice ');
    await fill(user, screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Page at /dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back')).toBeInTheDocument();
    expect(sent).toEqual([{ nickOrEmail: 'alice', password: 'secret' }]);
    expect(useSession.getState().user?.nickname).toBe('alice');
  });

  it("toasts 'Incorrect password' and stays", async () => {
    mockAuth('/user/login', () => refuse(401, 'Incorrect password'));
    const router = renderRoute('/login', LoginPage, ['/dashboard', '/register']);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Nickname or e-mail/ }), 'alice');
    await fill(user, screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(useSession.getState().token).toBeNull();
  });

  it('asks for the second factor on the same screen, then signs in with the code or a recovery code', async () => {
    mockAuth('/user/login', () => ({
      mfaRequired: true as const,
      mfaToken: 'challenge-token-0123456789',
      message: 'Enter the code',
    }));
    const codes: unknown[] = [];
    server.use(
      answers.post('/user/login/mfa', loginResponse, async ({ request }) => {
        codes.push(await request.json());
        return codes.length === 1 ? refuse(400, 'Invalid code') : welcome('alice', 'Welcome back')();
      }),
    );
    const router = renderRoute('/login', LoginPage, ['/dashboard', '/register']);
    const user = userEvent.setup();
    await fill(user, await screen.findByRole('textbox', { name: /Nickname or e-mail/ }), 'alice');
    await fill(user, screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    const code = screen.getByRole('textbox', { name: /Authentication code/ });
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(useSession.getState().token).toBeNull();
    await user.type(code, '12a3456');
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid code')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const recovery = screen.getByRole('textbox', { name: /Recovery code/ });
    expect(recovery).toHaveFocus();
    await user.type(recovery, 'abcd-efgh-ijkl');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Page at /dashboard' })).toBeInTheDocument();
    expect(codes).toEqual([
      { mfaToken: 'challenge-token-0123456789', code: '123456' },
      { mfaToken: 'challenge-token-0123456789', code: 'abcd-efgh-ijkl' },
    ]);
    expect(useSession.getState().token).toBe('new-session');
  });
});
