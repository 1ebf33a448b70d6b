import { describe, expect, it } from 'vitest';
import { HASHES_AT_ONCE, hashPassword, passwordWork, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('runs at most one hash per core at once, the rest in turn, and every answer is right', async () => {
    const passwords = Array.from({ length: HASHES_AT_ONCE * 3 + 1 }, (_, i) => `Str0ng!Passw0rd-${i}`);
    const hashes = passwords.map((p) => hashPassword(p));
    const now = passwordWork();
    expect(now.running).toBe(HASHES_AT_ONCE);
    expect(now.waiting).toBe(passwords.length - HASHES_AT_ONCE);
    const done = await Promise.all(hashes);
    expect(new Set(done).size).toBe(passwords.length);
    expect(done.every((h) => h.startsWith('$argon2id$'))).toBe(true);
    expect(passwordWork()).toEqual({ running: 0, waiting: 0 });

    const checks = await Promise.all([
      verifyPassword(done[0] as string, passwords[0] as string),
      verifyPassword(done[1] as string, passwords[0] as string),
      verifyPassword('not a hash', passwords[0] as string),
    ]);
    expect(checks).toEqual([true, false, false]);
  });
});
