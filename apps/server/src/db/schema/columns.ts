/** Column types every table shares: money and the 24-character object ids (DESIGN §3, §4). */
import { char, numeric } from 'drizzle-orm/pg-core';

/** An amount of money: NUMERIC(38,9), 10^-9 units exactly (read back as text, never a float). */
export const money = (name: string) => numeric(name, { precision: 38, scale: 9 });

/** A 24-hex-character object id (`newObjectId`). */
export const objectId = (name: string) => char(name, { length: 24 });
