/**
 * The information pages (SPEC §2 /reports and /games): the reports by year, each a link opening in a new
 * tab, a year without any saying so; and the game card's Play Now leaving for the game's own site.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { GamesPage } from './GamesPage.tsx';
import { ReportsPage } from './ReportsPage.tsx';

describe('/reports', () => {
  it("opens on 2022's reports, each a link to its file in a new tab", () => {
    renderWithProviders(<ReportsPage />);
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    const q3 = screen.getByRole('link', { name: 'Q3 2022 economy report' });
    expect(q3).toHaveAttribute('href', '/docs/reports/2022-q3.html');
    expect(q3).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Q4 2022 economy report' })).toHaveAttribute(
      'href',
      '/docs/reports/2022-q4.html',
    );
  });

  it('says when a year has no reports yet', async () => {
    renderWithProviders(<ReportsPage />);
    await userEvent.setup().click(screen.getByRole('button', { name: '2023' }));
    expect(await screen.findByText('No reports for 2023 yet')).toBeInTheDocument();
  });
});

describe('/games', () => {
  it("offers Play Now to Orion's Reach, on its own site in a new tab", () => {
    renderWithProviders(<GamesPage />);
    expect(screen.getByRole('heading', { name: "Orion's Reach" })).toBeInTheDocument();
    const play = screen.getByRole('link', { name: 'Play Now' });
    expect(play).toHaveAttribute('href', 'https://orionsreach.example.com');
    expect(play).toHaveAttribute('target', '_blank');
    expect(play).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
