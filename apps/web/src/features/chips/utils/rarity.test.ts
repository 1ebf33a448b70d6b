import { DROP_TABLE } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { rarityColor, shipImage } from './rarity.ts';

describe('rarityColor', () => {
  it('gives every drop-table rarity a colour of its own', () => {
    const colours = DROP_TABLE.map((r) => rarityColor(r.rarity));
    expect(new Set(colours).size).toBe(DROP_TABLE.length);
    expect(rarityColor('Legendary')).toBe('orange');
  });

  it('shows an unknown rarity as Common', () => {
    expect(rarityColor('Mythic')).toBe(rarityColor('Common'));
    expect(rarityColor(undefined)).toBe('gray');
  });
});

describe('shipImage', () => {
  it('prefers the item picture, then its class picture', () => {
    expect(shipImage({ imgUrl: '/x.png', metadata: { class: 'Scout' } })).toBe('/x.png');
    expect(shipImage({ imgUrl: '', metadata: { class: 'Dreadnought' } })).toBe('/ships/dreadnought.svg');
    expect(shipImage({ imgUrl: '', metadata: {} })).toBeNull();
  });
});
