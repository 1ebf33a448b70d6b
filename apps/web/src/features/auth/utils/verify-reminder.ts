/**
 * SPEC §4: the verify-e-mail popup opens by itself at most once per 24 hours, for a member whose e-mail
 * is unverified (wallet-only accounts have none to verify). The next time it may show is kept in
 * localStorage; kept apart from the dialog so the shell can ask without loading it.
 */
import type { User } from '@starlight/shared';

export const VERIFY_REMINDER_KEY = 'verifyEmailReminder';
/** SPEC §9: the e-mail verification prompt comes back every 24 hours (milliseconds). */
export const VERIFY_REMINDER_MS = 24 * 60 * 60 * 1000;

/** True when `user` should be asked to verify now (pure, for tests and the shell). */
export function isVerifyPromptDue(user: User | null, nextShow: number | null, now: number): boolean {
  if (!user?.email || user.isEmailVerified || user.isWalletOnly) return false;
  return nextShow === null || now >= nextShow;
}

/** The stored next-show time (epoch milliseconds), or null. */
export function readVerifyReminder(): number | null {
  const value = Number(localStorage.getItem(VERIFY_REMINDER_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** Puts the popup off for 24 hours from `now`. */
export function postponeVerifyReminder(now: number): void {
  localStorage.setItem(VERIFY_REMINDER_KEY, String(now + VERIFY_REMINDER_MS));
}
