/**
 * The Gift dialog (DESIGN §11.5) as a member uses it, against a mocked API: it shows the item that goes,
 * sends `{itemId, recipientNickName}` once (Enter works), toasts the answer and closes; a refusal shows
 * in the dialog and keeps it open; a malformed nickname is said at the field and nothing is sent.
 */
import { type GroupedItem, messageResponse } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { GiftItemModal } from './GiftItemModal.tsx';

const falcon: GroupedItem = {
  itemId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'Falcon',
  count: 3,
  imgUrl: '',
  description: 'A fast scout ship',
  metadata: {},
  variabledata: {},
};

/** What the gift endpoint receives. */
function mockApi(answer: () => AnswerOf<typeof messageResponse>) {
  const sent: unknown[] = [];
  server.use(
    answers.post('/inventory/giftItem', messageResponse, async ({ request }) => {
      sent.push(await request.json());
      return answer();
    }),
  );
  return sent;
}

describe('GiftItemModal', () => {
  it('shows the item, sends the gift on Enter, toasts the answer and closes', async () => {
    const sent = mockApi(() => ({ message: 'Gifted Falcon to bob' }));
    const onClose = vi.fn();
    renderWithProviders(<GiftItemModal item={falcon} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Gift an item' });
    expect(dialog).toHaveTextContent('Falcon');
    expect(dialog).toHaveTextContent('One of your 3 goes; you keep the others.');
    const field = screen.getByRole('textbox', { name: /Recipient nickname/ });
    await waitFor(() => expect(field).toHaveFocus());
    await userEvent.setup().type(field, ' bob {Enter}');
    expect(await screen.findByText('Gifted Falcon to bob')).toBeInTheDocument();
    expect(sent).toEqual([{ itemId: falcon.itemId, recipientNickName: 'bob' }]);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the server's refusal in the dialog and stays open; typing clears it", async () => {
    mockApi(() => refuse(404, 'Recipient not found'));
    const onClose = vi.fn();
    renderWithProviders(<GiftItemModal item={{ ...falcon, count: 1 }} onClose={onClose} />);
    expect(await screen.findByText('Your only one goes.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Recipient nickname/ }), 'nobody');
    await user.click(screen.getByRole('button', { name: 'Send gift' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Recipient not found');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Gift an item' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Recipient nickname/ }), 'x');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('says what is wrong with a malformed nickname at the field and sends nothing', async () => {
    const sent = mockApi(() => ({ message: 'never' }));
    renderWithProviders(<GiftItemModal item={falcon} onClose={() => {}} />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Recipient nickname/ }), 'b!');
    await user.click(screen.getByRole('button', { name: 'Send gift' }));
    const field = screen.getByRole('textbox', { name: /Recipient nickname/ });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(await screen.findByText(/Recipient nickname/, { selector: '.mantine-TextInput-error' })).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('Cancel closes without sending', async () => {
    const sent = mockApi(() => ({ message: 'never' }));
    const onClose = vi.fn();
    renderWithProviders(<GiftItemModal item={falcon} onClose={onClose} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(sent).toEqual([]);
  });
});
