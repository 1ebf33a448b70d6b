/** One JSON line of figures per case: printed, kept as bench/results/<case>.json, appended to history. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Figures = { case: string } & Record<string, unknown>;

/** Rounds to `digits` decimals (figures are for reading, not for further arithmetic). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Prints `figures` as one line and writes it under `dir`. */
export function record(dir: string, figures: Figures): void {
  const line = JSON.stringify(figures);
  console.log(line);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${figures.case}.json`), `${line}\n`);
  appendFileSync(path.join(dir, 'history.jsonl'), `${JSON.stringify({ at: new Date().toISOString(), ...figures })}\n`);
}
