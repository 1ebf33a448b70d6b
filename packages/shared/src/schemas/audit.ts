/** Alert level (defcon) schemas (SPEC §3, §5; DESIGN §3). */
import { z } from 'zod';

export const defconResponse = z.object({ defconLvl: z.number().int(), defconMsg: z.string(), message: z.string() });
export type DefconResponse = z.infer<typeof defconResponse>;
