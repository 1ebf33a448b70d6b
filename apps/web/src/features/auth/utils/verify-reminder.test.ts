import type { User } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { isVerifyPromptDue, VERIFY_REMINDER_MS } from './verify-reminder.ts';

const base = { email: 'a@b.test', isEmailVerified: false, isWalletOnly: false } as User;
const now = Date.UTC(2026, 10, 22);

describe('the verify-e-mail popup (SPEC §4)', () => {
  it('shows for an unverified e-mail never postponed, or postponed more than 24 hours ago', () => {
    expect(isVerifyPromptDue(base, null, now)).toBe(true);
    expect(isVerifyPromptDue(base, now - 1, now)).toBe(true);
  });

  it('waits 24 hours after it was shown', () => {
    expect(isVerifyPromptDue(base, now + VERIFY_REMINDER_MS, now)).toBe(false);
  });

  it.each([
    ['a verified e-mail', { isEmailVerified: true }],
    ['a wallet-only account', { isWalletOnly: true }],
    ['no e-mail', { email: null }],
  ])('never shows for %s', (_name, patch) => {
    expect(isVerifyPromptDue({ ...base, ...patch } as User, null, now)).toBe(false);
  });

  it('never shows without a member', () => {
    expect(isVerifyPromptDue(null, null, now)).toBe(false);
  });
});
