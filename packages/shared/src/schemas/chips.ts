/** Alpha synth chips (DESIGN §7; SPEC §2 /synthchips, /openasc; §5 synth chips). */
import { z } from 'zod';
import { INT32_MAX } from './common.ts';
import { item } from './items.ts';

/** The chips' currency (precision 0) and what one costs in Credits (DESIGN §7). */
export const CHIP_TICKER = 'ASC';
export const CHIP_PRICE_CREDITS = '500';
/** Ship items per chip opened, chips per opening at most (DESIGN §7, SPEC §2). */
export const SHIPS_PER_CHIP = 5;
export const MAX_CHIPS_PER_OPENING = 100;
/** The seeded collection the ships belong to. */
export const ALPHA_SHIPS = 'Alpha Ships';

/**
 * The published drop table (DESIGN §7): each ship's rarity and its odds in basis points (1/10,000), then
 * the ship drawn evenly among that rarity's ships.
 */
export const DROP_TABLE = [
  { rarity: 'Common', oddsBp: 6000, ships: ['Scout', 'Hauler', 'Miner'] },
  { rarity: 'Uncommon', oddsBp: 2500, ships: ['Interceptor', 'Frigate'] },
  { rarity: 'Rare', oddsBp: 1000, ships: ['Destroyer', 'Corvette'] },
  { rarity: 'Epic', oddsBp: 400, ships: ['Cruiser'] },
  { rarity: 'Legendary', oddsBp: 100, ships: ['Dreadnought'] },
] as const;

/**
 * The picture of a ship class (a drop-table ship name, e.g. "Scout"): an SVG the web app serves from
 * `apps/web/public/ships`, e.g. "/ships/scout.svg" (one picture per class, not one for all).
 */
export function shipImageUrl(shipClass: string): string {
  return `/ships/${shipClass.toLowerCase()}.svg`;
}

/** `GET /api/inventory/synthChips` -> `{remaining, price, currencyId, message}`. */
export const synthChipsResponse = z.object({
  remaining: z.number().int(),
  price: z.string(),
  currencyId: z.number().int(),
  message: z.string(),
});
export type SynthChipsResponse = z.infer<typeof synthChipsResponse>;

/** SPEC §5 synth chips: amount integer 1 to 100, required. */
export const chipAmountRequest = z.strictObject({ amount: z.number().int().min(1).max(MAX_CHIPS_PER_OPENING) });
export type ChipAmountRequest = z.infer<typeof chipAmountRequest>;

/** `buySynthChips {amount}` -> `{remaining, message}`. */
export const buySynthChipsResponse = z.object({ remaining: z.number().int(), message: z.string() });
export type BuySynthChipsResponse = z.infer<typeof buySynthChipsResponse>;

/** `openSynthChips {amount}` -> `{createdItems, message}`: the ships just created. */
export const openSynthChipsResponse = z.object({ createdItems: z.array(item), message: z.string() });
export type OpenSynthChipsResponse = z.infer<typeof openSynthChipsResponse>;

/** `GET /api/inventory/dropTable` -> `{table, shipsPerChip, message}`; odds as decimal fractions ("0.6000"). */
export const dropTableResponse = z.object({
  table: z.array(z.object({ rarity: z.string(), odds: z.string(), ships: z.array(z.string()) })),
  shipsPerChip: z.number().int().max(INT32_MAX),
  message: z.string(),
});
export type DropTableResponse = z.infer<typeof dropTableResponse>;
