/** How a ship's rarity and class show on screen (a colour per rarity, a picture per class). */
import { type DROP_TABLE, shipImageUrl } from '@starlight/shared';

/** Mantine colour of each drop-table rarity, from the plainest to the rarest (the usual game order). */
const RARITY_COLORS: Record<(typeof DROP_TABLE)[number]['rarity'], string> = {
  Common: 'gray',
  Uncommon: 'green',
  Rare: 'blue',
  Epic: 'grape',
  Legendary: 'orange',
};

/** The colour of `rarity` (a DROP_TABLE name); an unknown one is gray like Common. */
export function rarityColor(rarity: unknown): string {
  return typeof rarity === 'string' && rarity in RARITY_COLORS
    ? RARITY_COLORS[rarity as keyof typeof RARITY_COLORS]
    : 'gray';
}

/**
 * The picture of a ship item: its own `imgUrl`, else its class's (`metadata.class`, for ships made before
 * the server set one), else none.
 */
export function shipImage(item: { imgUrl: string; metadata: Record<string, unknown> }): string | null {
  if (item.imgUrl) return item.imgUrl;
  return typeof item.metadata.class === 'string' ? shipImageUrl(item.metadata.class) : null;
}
