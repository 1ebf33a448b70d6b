/**
 * SPEC §4 forge process row actions, with DESIGN §6's cancel window: a running process past its finish
 * date can be claimed; one younger than 10 minutes and not finished can be cancelled; otherwise it shows
 * `...Forging` (input worth more than output, by amount) or `...Melting`; an ended one shows Forged or
 * Melted (claimed) or Cancelled.
 */
import { FORGE_CANCEL_WINDOW_MS, type ForgeProcess, fromNumeric, PROCESS_STATE } from '@starlight/shared';

export type ProcessAction =
  | { kind: 'claim' }
  | { kind: 'cancel'; label: string; closesAt: number }
  | { kind: 'status'; label: string };

/** True when the recipe's input amount exceeds its output's (SPEC §4: Forging, else Melting). */
function isForging(p: ForgeProcess): boolean {
  return fromNumeric(p.input.amount) > fromNumeric(p.output.amount);
}

/** What the row of `p` offers at `now` (ms since the epoch). */
export function processAction(p: ForgeProcess, now: number): ProcessAction {
  const forging = isForging(p);
  if (p.state === PROCESS_STATE.Completed) return { kind: 'status', label: forging ? 'Forged' : 'Melted' };
  if (p.state === PROCESS_STATE.Cancelled) return { kind: 'status', label: 'Cancelled' };
  const finish = Date.parse(p.finishDate);
  if (now >= finish) return { kind: 'claim' };
  const closesAt = Date.parse(p.createdAt) + FORGE_CANCEL_WINDOW_MS;
  const running = forging ? '...Forging' : '...Melting';
  if (now < closesAt) return { kind: 'cancel', label: running, closesAt };
  return { kind: 'status', label: running };
}

/** The time left until `target` (ms since the epoch) at `now`, as `1d 02:03:04` or `02:03:04`; `00:00:00` once passed. */
export function countdown(target: number, now: number): string {
  const total = Math.max(0, Math.ceil((target - now) / 1000));
  const d = Math.floor(total / 86400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor((total % 86400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return d > 0 ? `${d}d ${hms}` : hms;
}
