import { DROP_TABLE } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { drawShip } from './chips.draw.ts';

describe('drawShip', () => {
  it('matches the published odds over 200,000 CSPRNG draws (each rarity within 5 standard deviations)', () => {
    const n = 200_000;
    const counts = new Map<string, number>();
    const ships = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const d = drawShip();
      counts.set(d.rarity, (counts.get(d.rarity) ?? 0) + 1);
      ships.set(d.ship, (ships.get(d.ship) ?? 0) + 1);
    }
    for (const row of DROP_TABLE) {
      const p = row.oddsBp / 10_000;
      const sigma = Math.sqrt(n * p * (1 - p));
      expect(Math.abs((counts.get(row.rarity) ?? 0) - n * p), row.rarity).toBeLessThan(5 * sigma);
      // Ships of one rarity come evenly.
      for (const ship of row.ships) {
        const q = p / row.ships.length;
        expect(Math.abs((ships.get(ship) ?? 0) - n * q), ship).toBeLessThan(5 * Math.sqrt(n * q * (1 - q)));
      }
    }
  });

  it('maps the roll onto the table in order: the first basis points are Common, the last Legendary', () => {
    expect(drawShip((max) => (max === 10_000 ? 0 : 0))).toEqual({ rarity: 'Common', ship: 'Scout' });
    expect(drawShip((max) => (max === 10_000 ? 9_999 : 0))).toEqual({ rarity: 'Legendary', ship: 'Dreadnought' });
    expect(drawShip((max) => (max === 10_000 ? 6_000 : 1))).toEqual({ rarity: 'Uncommon', ship: 'Frigate' });
  });
});
