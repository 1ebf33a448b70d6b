/**
 * Toasts on a phone (SPEC §8 toasts, kept clear of the page's controls): only the newest shows, a new one
 * replacing those on screen; a wider screen keeps them all. `hideToast` closes one toast.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { hideToast, PHONE_TOASTS, toastError, toastSuccess } from '../lib/notify.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';

const desktop = window.matchMedia;
afterEach(() => {
  window.matchMedia = desktop;
});

/** Makes `matchMedia` answer the phone query (390 px wide) as matching. */
function onPhone(): void {
  window.matchMedia = (query: string) => ({ ...desktop(query), matches: query === PHONE_TOASTS });
}

describe('toasts', () => {
  it('on a phone, a new toast replaces the ones on screen', async () => {
    onPhone();
    renderWithProviders(<p>page</p>);
    toastError('Network Error');
    expect(await screen.findByText('Network Error')).toBeTruthy();
    toastError('Insufficient balance');
    toastSuccess('Sent 10.00 CR to bob');
    expect(await screen.findByText('Sent 10.00 CR to bob')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Network Error')).toBeNull());
    expect(screen.queryByText('Insufficient balance')).toBeNull();
  });

  it('on a wider screen, toasts show side by side until they close', async () => {
    renderWithProviders(<p>page</p>);
    const first = toastError('Network Error');
    toastSuccess('Sent 10.00 CR to bob');
    expect(await screen.findByText('Network Error')).toBeTruthy();
    expect(await screen.findByText('Sent 10.00 CR to bob')).toBeTruthy();
    hideToast(first);
    await waitFor(() => expect(screen.queryByText('Network Error')).toBeNull());
    expect(screen.getByText('Sent 10.00 CR to bob')).toBeTruthy();
  });

  it('on a wider screen, a fourth toast closes the oldest: three at most', async () => {
    renderWithProviders(<p>page</p>);
    for (const m of ['one', 'two', 'three', 'four']) toastSuccess(`Toast ${m}`);
    expect(await screen.findByText('Toast four')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Toast one')).toBeNull());
    for (const m of ['two', 'three']) expect(screen.getByText(`Toast ${m}`)).toBeTruthy();
  });
});
