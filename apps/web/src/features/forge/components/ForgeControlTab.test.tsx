/**
 * The Admin Console's Forge Control (SPEC §2) against a mocked API: a card per recipe with its sides in
 * currency names, its time and Active state; SetActive sending the flipped flag; Delete asking first and
 * sending the recipe's id; 'No Recipes'; and a refusal of the list shown as the server worded it.
 */
import { currenciesResponse, type Recipe, recipeResponse, recipesResponse } from '@starlight/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AnswerOf, answers, refuse } from '../../../test/answer.ts';
import { CREATED, testCurrency, testId } from '../../../test/fixtures.ts';
import { server } from '../../../test/setup.ts';
import { renderWithProviders } from '../../../test/TestProviders.tsx';
import { ForgeControlTab } from './ForgeControlTab.tsx';

const dust = testCurrency(5, { ticker: 'SD', name: 'Stardust' });
const ore = testCurrency(6, { ticker: 'ORE', name: 'Ore', precision: 0 });
const smelt: Recipe = {
  _id: testId(0x51),
  name: 'Smelt ore',
  description: 'Turns stardust into ore',
  imgUrl: '',
  timeRequired: 5400,
  input: { currencyId: dust.currencyId, amount: '25' },
  output: { currencyId: ore.currencyId, amount: '1' },
  active: true,
  createdAt: CREATED,
};

/** The recipe list (or its refusal) and the currencies; what setactive and delete receive is returned. */
function mockApi(list: () => AnswerOf<typeof recipesResponse>) {
  const sent: Array<{ path: string; body: unknown }> = [];
  const record = (path: string) =>
    answers.post(path, recipeResponse, async ({ request }) => {
      sent.push({ path, body: await request.json() });
      return { recipe: smelt, message: path === '/forge/recipes/delete' ? 'Recipe deleted' : 'Recipe updated' };
    });
  server.use(
    answers.get('/forge/recipes/fetch', recipesResponse, list),
    answers.get('/bank/currencies', currenciesResponse, () => ({ currencies: [dust, ore], message: 'OK' })),
    record('/forge/recipes/setactive'),
    record('/forge/recipes/delete'),
  );
  return sent;
}

describe('Forge Control', () => {
  it('shows each recipe with its sides, time and Active state', async () => {
    mockApi(() => ({
      recipes: [smelt, { ...smelt, _id: testId(0x52), name: 'Old mine', active: false }],
      message: 'OK',
    }));
    renderWithProviders(<ForgeControlTab />);
    const card = await screen.findByRole('listitem', { name: 'Smelt ore' });
    expect(card).toHaveTextContent('Turns stardust into ore');
    await waitFor(() => expect(card).toHaveTextContent('Stardust x 25.00 → Ore x 1'));
    expect(card).toHaveTextContent('1 hour 30 min');
    expect(within(card).getByText('Active: Yes')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'SetActive Smelt ore' })).toHaveTextContent('Deactivate');
    const old = screen.getByRole('listitem', { name: 'Old mine' });
    expect(within(old).getByText('Active: No')).toBeInTheDocument();
    expect(within(old).getByRole('button', { name: 'SetActive Old mine' })).toHaveTextContent('Activate');
  });

  it('deactivates a recipe with the flipped flag, and deletes one only once confirmed', async () => {
    const sent = mockApi(() => ({ recipes: [smelt], message: 'OK' }));
    renderWithProviders(<ForgeControlTab />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'SetActive Smelt ore' }));
    expect(await screen.findByText('Recipe updated')).toBeInTheDocument();
    expect(sent).toEqual([{ path: '/forge/recipes/setactive', body: { objectId: smelt._id, flag: false } }]);

    await user.click(screen.getByRole('button', { name: 'Delete Smelt ore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Recipe' });
    expect(dialog).toHaveTextContent('Delete Smelt ore? Members can no longer start it');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(sent).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete Smelt ore' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete Recipe' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Recipe deleted')).toBeInTheDocument();
    expect(sent[1]).toEqual({ path: '/forge/recipes/delete', body: { objectId: smelt._id } });
  });

  it("says 'No Recipes' when there are none", async () => {
    mockApi(() => ({ recipes: [], message: 'OK' }));
    renderWithProviders(<ForgeControlTab />);
    expect(await screen.findByText('No Recipes')).toBeInTheDocument();
  });

  it("shows the server's refusal of the list", async () => {
    mockApi(() => refuse(403, 'Not authorized'));
    renderWithProviders(<ForgeControlTab />);
    expect(await screen.findByText('Not authorized')).toBeInTheDocument();
  });
});
