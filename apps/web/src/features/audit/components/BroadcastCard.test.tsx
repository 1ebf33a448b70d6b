/**
 * Admin Console → Defcon Level → Broadcast against a mocked API (DESIGN §11.3): the server's refusal by
 * its field and in the form; a broadcast to one role sends the trimmed link and the role, toasts the
 * server's message, empties the form and lists the broadcast sent; an empty list says so.
 */
import { broadcastsResponse, messageResponse, type SentBroadcast } from '@starlight/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answers, refuse } from '../../../test/answer.ts';
import { CREATED, testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { BroadcastCard } from './BroadcastCard.tsx';

describe('Broadcast', () => {
  it('shows a refusal by its field, then sends to one role and lists it', async () => {
    const sent: unknown[] = [];
    const list: SentBroadcast[] = [];
    server.use(
      answers.post('/audit/broadcasts', broadcastsResponse, () => ({
        broadcasts: list,
        total: list.length,
        message: 'OK',
      })),
      answers.post('/audit/broadcast', messageResponse, async ({ request }) => {
        const body = (await request.json()) as { title: string; body: string; link?: string; role?: string };
        sent.push(body);
        if (body.link?.startsWith('//'))
          return refuse(400, 'Link must be a path of this site (/...) or an https URL', [
            { field: 'link', message: 'Link must be a path of this site (/...) or an https URL' },
          ]);
        list.unshift({ _id: testId(9), link: null, role: null, createdAt: CREATED, ...body });
        return { message: 'Broadcast sent to every creator' };
      }),
    );
    renderWithProviders(<BroadcastCard />);
    expect(await screen.findByText('No broadcasts sent yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'New tools');
    await user.type(screen.getByRole('textbox', { name: 'Body' }), 'Try them');
    await user.type(screen.getByRole('textbox', { name: 'Link' }), '//elsewhere');
    await user.selectOptions(screen.getByRole('combobox', { name: 'To' }), 'Every creator');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect(await screen.findByRole('textbox', { name: 'Link' })).toHaveAccessibleDescription(
      /Link must be a path of this site/,
    );
    expect(screen.getByText('Not sent')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Link' }));
    await user.type(screen.getByRole('textbox', { name: 'Link' }), ' /creator?tab=items ');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect(await screen.findByText('Broadcast sent to every creator')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ title: 'New tools', body: 'Try them', link: '/creator?tab=items', role: 'creator' });
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('');
    const item = await screen.findByRole('listitem');
    expect(within(item).getByText('New tools')).toBeInTheDocument();
    expect(within(item).getByText('Every creator')).toBeInTheDocument();
    expect(screen.queryByText('Not sent')).toBeNull();
  });
});
