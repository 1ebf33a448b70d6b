/**
 * /loginCApp/{authId} (SPEC §2, DESIGN §7) as a route against a mocked API: what the creator app asks (its
 * message as text), the sign-in it sends with the request's id, an app address the browser may not open
 * refused in words, a refused sign-in toasted, and a request that cannot be read replacing the page with what happened.
 */
import { type AuthRequestData, getAuthRequestResponse, loginResponse } from '@starlight/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UNSAFE_APP_URL } from '../../../lib/app-url.ts';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { CreatorAppLoginPage } from './CreatorAppLoginPage.tsx';

const requestId = testId(0x61);
const asked: AuthRequestData = {
  itemCollectionId: testId(0x62),
  collectionName: 'Orion Fleet',
  redirectUrl: 'https://fleet.example.test/callback',
  cancelUrl: 'https://fleet.example.test/cancel',
  customMessage: 'Bring your ships into the game',
  requestMessage: 'The app will see your nickname and your Orion Fleet items.',
  cappUrl: 'https://fleet.example.test',
};

/** Answers the consent request with `request` and the sign-in with `login`; sign-in bodies are returned. */
function mockConsent(
  request: () => AnswerOf<typeof getAuthRequestResponse>,
  login: () => AnswerOf<typeof loginResponse> = () => refuse(400, 'unused'),
) {
  const sent: unknown[] = [];
  server.use(
    answers.post('/capp/getAuthRequest', getAuthRequestResponse, request),
    answers.post('/user/login', loginResponse, async ({ request: req }) => {
      sent.push(await req.json());
      return login();
    }),
  );
  return sent;
}

const open = () => renderRoute('/loginCApp/$authId', () => <CreatorAppLoginPage />, ['/'], `/loginCApp/${requestId}`);

async function signIn(password: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('textbox', { name: /Nickname or e-mail/ }));
  await user.paste('alice');
  await user.click(screen.getByLabelText(/^Password/));
  await user.paste(password);
  await user.click(screen.getByRole('button', { name: 'Sign in and allow' }));
}

describe('/loginCApp/{authId}', () => {
  it("shows what the app asks and signs in for it with the request's id", async () => {
    const sent = mockConsent(
      () => ({ data: asked, message: 'OK' }),
      () => ({ url: 'javascript:alert(1)', message: 'Authorized' }),
    );
    open();
    expect(await screen.findByRole('heading', { name: 'Sign in to Orion Fleet' })).toBeInTheDocument();
    expect(screen.getByText('https://fleet.example.test')).toBeInTheDocument();
    expect(screen.getByText('Bring your ships into the game')).toBeInTheDocument();
    expect(screen.getByText(asked.requestMessage)).toBeInTheDocument();
    await signIn('secret');
    // The server's answer named an address the browser must not open: it says so and stays.
    expect(await screen.findByText(UNSAFE_APP_URL)).toBeInTheDocument();
    expect(sent).toEqual([{ nickOrEmail: 'alice', password: 'secret', cAppAuthRequest: requestId }]);
  });

  it("shows the app's message as text, never as markup", async () => {
    const customMessage = '<img src=x onerror="alert(1)"><b>Allow</b>';
    mockConsent(() => ({ data: { ...asked, customMessage }, message: 'OK' }));
    open();
    expect(await screen.findByText(customMessage)).toBeInTheDocument();
    expect(document.querySelector('img[src="x"], b')).toBeNull();
  });

  it('toasts a refused sign-in and lets the member try again', async () => {
    mockConsent(
      () => ({ data: { ...asked, customMessage: '' }, message: 'OK' }),
      () => refuse(401, 'Incorrect password'),
    );
    open();
    await signIn('wrong');
    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();
    expect(screen.queryByText('Message from the app')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in and allow' })).toBeEnabled();
  });

  it('replaces the page with what happened when the link is unknown or expired', async () => {
    mockConsent(() => refuse(404, 'Authorization request not found'));
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link is invalid.');
    expect(screen.queryByRole('button', { name: 'Sign in and allow' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the Starlight home page' })).toHaveAttribute('href', '/');
  });

  it('says when the link has expired', async () => {
    mockConsent(() => refuse(409, 'Authorization request expired'));
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link has expired.');
  });
});
