/**
 * SPEC §2/§4: when the Beta Disclaimer (v0.0.1) is due: never accepted, an older stored version, or a
 * month after the last acceptance. Kept apart from the dialog so the shell can ask without loading it.
 */
export const DISCLAIMER_VERSION = 'v0.0.1';
export const DISCLAIMER_KEY = 'disclaimer';

export interface StoredDisclaimer {
  version: string;
  nextShow: number;
}

function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split('.').map(Number);
  const pb = b.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** True when the disclaimer is due (pure, for tests and the shell). */
export function isDisclaimerDue(stored: StoredDisclaimer | null, now: number): boolean {
  if (!stored) return true;
  return compareVersions(stored.version, DISCLAIMER_VERSION) < 0 || now >= stored.nextShow;
}

/** The acceptance kept in localStorage, or null. */
export function readStoredDisclaimer(): StoredDisclaimer | null {
  try {
    return JSON.parse(localStorage.getItem(DISCLAIMER_KEY) ?? 'null') as StoredDisclaimer | null;
  } catch {
    return null;
  }
}
