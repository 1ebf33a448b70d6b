/**
 * /analytics (SPEC §2) against a mocked API, where every frame counts as scrolled to (jsdom draws no layout):
 * while the currencies still load, the pairs below them wait, so no pair's candles are fetched before the
 * currencies' cards take their place above; once they arrive, the pairs' cards follow.
 */
import { candlesResponse, currenciesResponse, pairsResponse, supplyHistoriesResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answers } from '../../test/answer.ts';
import { testCurrency, testPair } from '../../test/fixtures.ts';
import { server } from '../../test/setup.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { AnalyticsPage } from './AnalyticsPage.tsx';

const credits = testCurrency(1, { ticker: 'CR', name: 'Credits' });
const gems = testCurrency(2, { ticker: 'GEM', name: 'Gems' });

/** An IntersectionObserver that sees every observed frame in view at once. */
class InView {
  private readonly callback: IntersectionObserverCallback;
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
  }
  observe(target: Element) {
    this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never);
  }
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

beforeEach(() => vi.stubGlobal('IntersectionObserver', InView));
afterEach(() => vi.unstubAllGlobals());

describe('/analytics', () => {
  it('fetches no candles while the currencies above the pairs still load', async () => {
    let releaseCurrencies = () => {};
    const currenciesArrive = new Promise<void>((resolve) => {
      releaseCurrencies = resolve;
    });
    let candleCalls = 0;
    server.use(
      answers.get('/bank/currencies', currenciesResponse, async () => {
        await currenciesArrive;
        return { currencies: [credits, gems], message: 'OK' };
      }),
      answers.get('/cex/getPairs', pairsResponse, () => ({ pairs: [testPair(gems, credits)], message: 'OK' })),
      answers.post('/bank/supplyHistories', supplyHistoriesResponse, () => ({ histories: [], message: 'OK' })),
      answers.post('/cex/getCandles', candlesResponse, () => {
        candleCalls += 1;
        return { candles: [], message: 'OK' };
      }),
    );
    renderWithProviders(<AnalyticsPage />);
    const pairsSection = screen.getByRole('region', { name: 'Trading pairs' });
    await waitFor(() => expect(within(pairsSection).getByText('Loading…')).toBeInTheDocument());
    // The pairs have answered by now; their cards still wait for the currencies.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(pairsSection).getByText('Loading…')).toBeInTheDocument();
    expect(candleCalls).toBe(0);

    releaseCurrencies();
    expect(await screen.findByRole('region', { name: 'Credits supply' })).toBeInTheDocument();
    await waitFor(() => expect(candleCalls).toBeGreaterThan(0));
    expect(within(pairsSection).queryByText('Loading…')).not.toBeInTheDocument();
  });
});
