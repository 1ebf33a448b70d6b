/** Alert level (defcon) schemas (SPEC §3, §5; DESIGN §3). */
import { z } from 'zod';

export const defconResponse = z.object({ defconLvl: z.number().int(), defconMsg: z.string(), message: z.string() });
export type DefconResponse = z.infer<typeof defconResponse>;

/** SPEC §5 alert level: defconLvl 0 to 5 and defconMsg required. */
export const setDefconRequest = z.strictObject({
  defconLvl: z.number().int().min(0).max(5),
  defconMsg: z.string().max(1000),
});
export type SetDefconRequest = z.infer<typeof setDefconRequest>;
