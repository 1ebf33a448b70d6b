/**
 * GET /api/audit/getDefconLevel (public): `{defconLvl, defconMsg}`. The shell asks on every page load,
 * the home page included, so this hook does without the query client: the first paint of `/` then
 * carries no server-data library (issue 6 §6). One request per page load, shared by every caller.
 */
import type { DefconResponse } from '@starlight/shared';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';

/** Fetches the alert level. */
export function getDefconLevel(): Promise<DefconResponse> {
  return api<DefconResponse>('GET', '/audit/getDefconLevel');
}

let pending: Promise<DefconResponse | undefined> | null = null;

/** The alert level once loaded (`data` undefined before, or when the request failed: no notice then). */
export function useDefconLevel(): { data: DefconResponse | undefined } {
  const [data, setData] = useState<DefconResponse | undefined>(undefined);
  useEffect(() => {
    let live = true;
    pending ??= getDefconLevel().catch(() => undefined);
    void pending.then((d) => {
      if (live) setData(d);
    });
    return () => {
      live = false;
    };
  }, []);
  return { data };
}
