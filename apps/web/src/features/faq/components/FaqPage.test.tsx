/**
 * /Faq (SPEC §2 FAQ) against the FAQ file the app ships (`public/faq.json`, served as the browser would
 * get it: it is a static file, not an API route, so the file itself is the answer and cannot drift): one
 * section per SPEC category in order, answers with their line breaks and bold segments, and a failed load
 * said in words with Try again.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import shipped from '../../../../public/faq.json';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { FaqPage } from './FaqPage.tsx';

/** Serves the shipped FAQ, after `failures` refusals; returns how many times it was asked for. */
function serveFaq(failures = 0) {
  let asked = 0;
  server.use(
    http.get('*/faq.json', () => {
      asked += 1;
      return asked <= failures ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(shipped);
    }),
  );
  return () => asked;
}

describe('/Faq', () => {
  it("shows SPEC's categories in order, each question's answer with its line breaks and bold", async () => {
    serveFaq();
    renderWithProviders(<FaqPage />);
    await screen.findByRole('heading', { name: 'The economy' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.id)).toEqual([
      'faq-economy',
      'faq-ip',
      'faq-p2e',
      'faq-randc',
      'faq-guilds',
      'faq-orionsreach',
    ]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Which currencies does Starlight have?' }));
    const bold = await screen.findByText('Stardust (SD)');
    expect(bold.tagName).toBe('B');
    const line = bold.closest('p') as HTMLElement;
    expect(line).toHaveTextContent(/^Stardust \(SD\) is the main token/);
    expect(within(line.parentElement as HTMLElement).getByText('Starnote (SN)').tagName).toBe('B');
  });

  it('says the FAQ could not be loaded, and loads it on Try again', async () => {
    const asked = serveFaq(1);
    renderWithProviders(<FaqPage />);
    expect(await screen.findByText('The FAQ could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Request failed with status code 503')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Guilds' })).toBeInTheDocument();
    expect(screen.queryByText('The FAQ could not be loaded')).not.toBeInTheDocument();
    expect(asked()).toBe(2);
  });
});
