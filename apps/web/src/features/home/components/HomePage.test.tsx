/**
 * / (SPEC §1 home page) as a route: a visitor's ways in (Join Starlight, Sign in) that open their pages,
 * a member's way to the console, the roadmap, and the token contracts' placeholder with the lightpaper.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { testUser } from '../../../test/fixtures.ts';
import { renderRoute } from '../../../test/TestProviders.tsx';
import { HomePage } from './HomePage.tsx';

const ELSEWHERE = ['/register', '/login', '/dashboard', '/lightpaper'];

beforeEach(() => useSession.setState({ user: null, token: null }));

describe('/', () => {
  it('offers a visitor Join Starlight and Sign in, which open their pages', async () => {
    const router = renderRoute('/', HomePage, ELSEWHERE);
    expect(
      await screen.findByRole('heading', { name: 'The community economy of the Starlight universe' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open your console' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Join Starlight' }));
    expect(await screen.findByRole('heading', { name: 'Page at /register' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('offers a member the console instead', async () => {
    useSession.setState({ user: testUser('alice'), token: 'session-token' });
    renderRoute('/', HomePage, ELSEWHERE);
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Open your console' }));
    expect(await screen.findByRole('heading', { name: 'Page at /dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Join Starlight' })).not.toBeInTheDocument();
  });

  it('shows the roadmap and, with no contract published, the way to the lightpaper', async () => {
    renderRoute('/', HomePage, ELSEWHERE);
    const roadmap = (await screen.findByRole('heading', { name: 'Roadmap' })).closest('section') as HTMLElement;
    expect(roadmap).toHaveTextContent('Next: Rewards for active members');
    expect(screen.getByText(/Not published yet: the on-chain contracts will be listed here/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read the lightpaper' })).toHaveAttribute('href', '/lightpaper');
  });
});
