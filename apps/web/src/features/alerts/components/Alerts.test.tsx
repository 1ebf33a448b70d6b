/**
 * The shell's notices (SPEC §2 Disclaimer and defcon popups) against a mocked API: the alert level the
 * server gives shown with its message until Acknowledged; on a first visit the Beta Disclaimer first,
 * Accept disabled with 'Please read…' until the box is ticked, the acceptance stored, then the alert; and
 * nothing at level 0 once the disclaimer is accepted.
 */
import { defconResponse } from '@starlight/shared';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setDefcon } from '../../../lib/defcon.ts';
import { answers } from '../../../test/answer.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { DISCLAIMER_KEY, DISCLAIMER_VERSION } from '../utils/disclaimer.ts';
import { Alerts } from './Alerts.tsx';

beforeAll(() => {
  // jsdom has no modal dialogs: open and close are all the disclaimer needs of them.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

function acceptedLastWeek() {
  const nextShow = Date.now() + 21 * 24 * 3600 * 1000;
  localStorage.setItem(DISCLAIMER_KEY, JSON.stringify({ version: DISCLAIMER_VERSION, nextShow }));
}

describe('Alerts', () => {
  // First: the level is read from the server only while none is known yet (lib/defcon.ts).
  it('shows the level the server gives, with its message, until Acknowledged', async () => {
    acceptedLastWeek();
    server.use(
      answers.get('/audit/getDefconLevel', defconResponse, () => ({
        defconLvl: 2,
        defconMsg: 'Withdrawals are paused',
        message: 'OK',
      })),
    );
    renderWithProviders(<Alerts />);
    const notice = await screen.findByRole('dialog', { name: 'Defcon Level 2' });
    expect(notice).toHaveTextContent('Withdrawals are paused');
    expect(screen.queryByText(/Beta Disclaimer/)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Acknowledged' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Defcon Level 2' })).not.toBeInTheDocument());
  });

  it('on a first visit shows the disclaimer first, and the alert once it is accepted', async () => {
    act(() => setDefcon({ defconLvl: 3, defconMsg: 'Maintenance tonight' }));
    renderWithProviders(<Alerts />);
    expect(await screen.findByRole('heading', { name: `Beta Disclaimer (${DISCLAIMER_VERSION})` })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Defcon Level 3' })).not.toBeInTheDocument();
    const waiting = screen.getByRole('button', { name: 'Please read…' });
    expect(waiting).toBeDisabled();

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'I have read and agree to the above disclaimer.' }));
    expect(waiting).toHaveTextContent('Accept');
    expect(waiting).toBeEnabled();
    await user.click(waiting);
    expect(JSON.parse(localStorage.getItem(DISCLAIMER_KEY) ?? '{}')).toMatchObject({ version: DISCLAIMER_VERSION });
    expect(await screen.findByRole('dialog', { name: 'Defcon Level 3' })).toHaveTextContent('Maintenance tonight');
  });

  it('shows nothing at level 0 once the disclaimer is accepted, and a raised level at once', async () => {
    acceptedLastWeek();
    act(() => setDefcon({ defconLvl: 0, defconMsg: '' }));
    renderWithProviders(<Alerts />);
    await act(async () => {});
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText(/Beta Disclaimer/)).not.toBeInTheDocument();
    // A live change raises it: the notice opens without a reload.
    act(() => setDefcon({ defconLvl: 1, defconMsg: 'Heads up' }));
    expect(await screen.findByRole('dialog', { name: 'Defcon Level 1' })).toHaveTextContent('Heads up');
  });
});
