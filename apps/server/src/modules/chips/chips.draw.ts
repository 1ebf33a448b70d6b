/**
 * Drawing ships from the published drop table (DESIGN §7) with a CSPRNG (`crypto.randomInt`): a rarity
 * by its odds in basis points, then one of that rarity's ships, evenly.
 */
import { randomInt } from 'node:crypto';
import { DROP_TABLE } from '@starlight/shared';

export interface DrawnShip {
  rarity: string;
  ship: string;
}

/** One ship. `random(max)` answers an integer in [0, max); the CSPRNG unless a test passes another. */
export function drawShip(random: (max: number) => number = randomInt): DrawnShip {
  const total = DROP_TABLE.reduce((s, r) => s + r.oddsBp, 0);
  let roll = random(total);
  for (const row of DROP_TABLE) {
    if (roll < row.oddsBp) return { rarity: row.rarity, ship: row.ships[random(row.ships.length)] ?? row.ships[0] };
    roll -= row.oddsBp;
  }
  throw new Error('the drop table does not cover its total');
}
