/**
 * The alert level (SPEC §3 defcon) every page shows. Read with GET /api/audit/getDefconLevel when the
 * first page opens and every 30 seconds after, and set at once by the live socket when an admin
 * changes it (`setDefcon`). No query client: the shell asks on every page, the home page included,
 * whose first paint carries no server-data library.
 */
import type { DefconResponse } from '@starlight/shared';
import { useEffect, useSyncExternalStore } from 'react';
import { api } from './api.ts';

/** How often an open page asks for the level again (milliseconds). */
export const DEFCON_REFRESH_MS = 30_000;

export type Defcon = Pick<DefconResponse, 'defconLvl' | 'defconMsg'>;

let current: Defcon | undefined;
const listeners = new Set<() => void>();

/** Sets the level every page shows (from a fetch or a live message). */
export function setDefcon(next: Defcon): void {
  if (current?.defconLvl === next.defconLvl && current.defconMsg === next.defconMsg) return;
  current = { defconLvl: next.defconLvl, defconMsg: next.defconMsg };
  for (const listener of listeners) listener();
}

/** Fetches the level (a failure leaves the shown one as it is). */
export async function refreshDefcon(): Promise<void> {
  try {
    setDefcon(await api<DefconResponse>('GET', '/audit/getDefconLevel'));
  } catch {
    // No notice is better than a wrong one: keep what is shown.
  }
}

let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

/** The alert level once loaded (undefined before); keeps it fresh while a component uses it. */
export function useDefcon(): Defcon | undefined {
  useEffect(() => {
    users += 1;
    if (users === 1) {
      if (current === undefined) void refreshDefcon();
      timer = setInterval(() => void refreshDefcon(), DEFCON_REFRESH_MS);
    }
    return () => {
      users -= 1;
      if (users === 0) clearInterval(timer);
    };
  }, []);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
