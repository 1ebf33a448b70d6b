/**
 * What the demo community of a first start holds (seed-demo.ts): its members and their balances, the
 * orders that make its book and trades, its Credits packages, its forge recipe and its collection.
 * Amounts are decimal strings or whole units, never floats.
 */

export type DemoNick = 'nova' | 'orion' | 'lyra' | 'vega';

/** The demo members, the creator last; `holdings`: whole units minted per currency id (1 SD, 2 SN, 3 Credits). */
export const DEMO_MEMBERS: ReadonlyArray<{
  nickname: DemoNick;
  role: 'user' | 'creator';
  holdings: Readonly<Record<number, number>>;
}> = [
  { nickname: 'nova', role: 'user', holdings: { 1: 1000, 2: 1000, 3: 250 } },
  { nickname: 'orion', role: 'user', holdings: { 1: 1000, 2: 1000, 3: 250 } },
  { nickname: 'lyra', role: 'user', holdings: { 1: 1000, 2: 1000, 3: 250 } },
  { nickname: 'vega', role: 'creator', holdings: { 1: 500, 2: 500, 3: 100 } },
];

/**
 * The orders on the Starnote/Stardust pair, placed in this order: nova's asks and orion's bids rest;
 * lyra's buy at 1.10 takes nova's 1.05 ask and part of her 1.10 one, lyra's sell at 0.95 part of orion's
 * 0.95 bid. The book keeps asks 1.10 and 1.20 and bids 0.95, 0.90 and 0.85, with three trades.
 */
export const DEMO_ORDERS: ReadonlyArray<{ by: DemoNick; buy: boolean; amount: string; price: string }> = [
  { by: 'nova', buy: false, amount: '100', price: '1.05' },
  { by: 'nova', buy: false, amount: '150', price: '1.10' },
  { by: 'nova', buy: false, amount: '200', price: '1.20' },
  { by: 'orion', buy: true, amount: '100', price: '0.95' },
  { by: 'orion', buy: true, amount: '150', price: '0.90' },
  { by: 'orion', buy: true, amount: '200', price: '0.85' },
  { by: 'lyra', buy: true, amount: '120', price: '1.10' },
  { by: 'lyra', buy: false, amount: '40', price: '0.95' },
];

/** The published, active Credits packages (cost in US dollars, Credits as a decimal string). */
export const DEMO_PACKAGES: ReadonlyArray<{ name: string; description: string; cost: string; credits: string }> = [
  { name: 'Starter Credits', description: 'A first handful of Credits to try the store', cost: '4.99', credits: '500' },
  { name: 'Explorer Credits', description: 'Credits for a longer voyage', cost: '19.99', credits: '2500' },
];

/** The active forge recipe: 10 Stardust into 9 Starnote in a minute. */
export const DEMO_RECIPE = {
  name: 'Stardust Condenser',
  description: 'Condense Stardust into Starnote',
  timeRequired: 60,
  inputAmount: '10',
  outputAmount: '9',
} as const;

/** The creator's collection and its items, each owned by a demo member. */
export const DEMO_COLLECTION: {
  name: string;
  description: string;
  creator: DemoNick;
  items: ReadonlyArray<{ owner: DemoNick; name: string; description: string; kind: string }>;
} = {
  name: 'Demo Fleet',
  description: "Vega's ships, one for each member of the demo community",
  creator: 'vega',
  items: [
    { owner: 'nova', name: 'Comet Runner', description: 'A quick courier', kind: 'courier' },
    { owner: 'orion', name: 'Nebula Hauler', description: 'A slow, roomy freighter', kind: 'freighter' },
    { owner: 'lyra', name: 'Star Lancer', description: 'A nimble fighter', kind: 'fighter' },
    { owner: 'vega', name: 'Aurora Yacht', description: "The creator's own", kind: 'yacht' },
  ],
};
