/**
 * The FAQ (SPEC §2, §4, §7): a static JSON file shipped with the app (`/faq.json`), kept in
 * localStorage under `faq` and fetched again at most once per 24 hours, so the page opens without the
 * network once it has been read.
 */

export interface FaqEntry {
  question: string;
  answer: string;
}

export interface FaqCategory {
  /** SPEC's category id: economy, ip, p2e, randc, guilds, orionsreach. */
  id: string;
  title: string;
  entries: FaqEntry[];
}

export interface Faq {
  version: number;
  categories: FaqCategory[];
}

export const FAQ_KEY = 'faq';
/** How long a stored FAQ is used without asking again (milliseconds, SPEC §9: daily refreshes). */
export const FAQ_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface StoredFaq {
  fetchedAt: number;
  faq: Faq;
}

/** True when a stored copy fetched at `fetchedAt` can still be used at `now`. */
export function isFaqFresh(fetchedAt: number, now: number): boolean {
  return now >= fetchedAt && now - fetchedAt < FAQ_MAX_AGE_MS;
}

function readStored(): StoredFaq | null {
  try {
    const stored = JSON.parse(localStorage.getItem(FAQ_KEY) ?? 'null') as StoredFaq | null;
    return stored && Array.isArray(stored.faq?.categories) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The FAQ: the stored copy when fresh, else `/faq.json` (stored for next time). When the fetch fails, a
 * stale stored copy is better than nothing; with none, the error is thrown.
 */
export async function loadFaq(now = Date.now()): Promise<Faq> {
  const stored = readStored();
  if (stored && isFaqFresh(stored.fetchedAt, now)) return stored.faq;
  try {
    const res = await fetch('/faq.json');
    if (!res.ok) throw new Error(`Request failed with status code ${res.status}`);
    const faq = (await res.json()) as Faq;
    localStorage.setItem(FAQ_KEY, JSON.stringify({ fetchedAt: now, faq } satisfies StoredFaq));
    return faq;
  } catch (err) {
    if (stored) return stored.faq;
    throw err;
  }
}
