/**
 * The Admin Console's shell (SPEC §2) as a route: its tabs in SPEC's order with Currency the default,
 * a deep link opening any tab, a tab switch that keeps only the view (a tab's own filters are dropped),
 * and Guild Control's placeholder. Each tab's panel is its feature's (tested there): a stub here.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/TestProviders.tsx';
import AdminConsole, { ADMIN_TABS, type AdminPanels } from './AdminConsole.tsx';

const stub = (name: string) => () => <p>{`${name} panel`}</p>;
const panels: AdminPanels = {
  currency: stub('Currency'),
  tnx: stub('Tnx Logs'),
  'user-logs': stub('User Logs'),
  'access-logs': stub('Access Logs'),
  'admin-logs': stub('Admin Logs'),
  'user-control': stub('User Control'),
  defcon: stub('Defcon'),
  'checkout-control': stub('Checkout Control'),
  'checkout-logs': stub('Checkout Logs'),
  'forge-control': stub('Forge Control'),
  'forge-logs': stub('Forge Process Logs'),
  'cex-control': stub('Cex Control'),
};

const Console = () => <AdminConsole panels={panels} />;

describe('Admin Console', () => {
  it("lists SPEC's tabs in order and opens Currency by default", async () => {
    renderRoute('/dashboard', Console);
    const list = await screen.findByRole('tablist', { name: 'Admin Console sections' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Currency',
      'Tnx Logs',
      'User Logs',
      'Access Logs',
      'Admin Logs',
      'User Control',
      'Guild Control',
      'Defcon Level',
      'Checkout Control',
      'Checkout Logs',
      'Forge Control',
      'Forge Process Logs',
      'Cex Control',
    ]);
    expect(list).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Currency' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Currency panel')).toBeInTheDocument();
    expect(ADMIN_TABS).toHaveLength(13);
  });

  it('opens the tab a link names, and falls back to Currency for an unknown one', async () => {
    renderRoute('/dashboard?tab=defcon', Console);
    expect(await screen.findByText('Defcon panel')).toBeInTheDocument();
    expect(screen.queryByText('Currency panel')).not.toBeInTheDocument();
  });

  it("switches tab in the URL, keeping the view and dropping the last tab's filters", async () => {
    const router = renderRoute('/dashboard?view=admin&tab=tnx&txPage=3', Console);
    expect(await screen.findByText('Tnx Logs panel')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Forge Control' }));
    expect(await screen.findByText('Forge Control panel')).toBeInTheDocument();
    expect(screen.queryByText('Tnx Logs panel')).not.toBeInTheDocument();
    expect(router.state.location.search).toEqual({ view: 'admin', tab: 'forge-control' });
  });

  it("shows Guild Control's placeholder, never a blank panel", async () => {
    renderRoute('/dashboard?tab=guild-control', Console);
    expect(await screen.findByRole('heading', { name: 'Guild Control' })).toBeInTheDocument();
    expect(screen.getByText(/Guilds are not part of this beta yet/)).toBeInTheDocument();
  });
});
