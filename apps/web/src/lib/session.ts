/**
 * The session (SPEC §4 Session): user, token and expiry, kept in localStorage under SPEC's keys so a
 * reload keeps the member signed in. Zustand store; components read it with `useSession`.
 */
import type { User } from '@starlight/shared';
import { create } from 'zustand';

/** SPEC §9: sessions last 24 hours. */
export const SESSION_MS = 24 * 60 * 60 * 1000;

interface SessionState {
  user: User | null;
  token: string | null;
  /** Epoch milliseconds when the session ends. */
  tokenexpires: number | null;
  signIn(user: User, token: string): void;
  setUser(user: User): void;
  clear(): void;
}

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
}

export const useSession = create<SessionState>((set) => ({
  user: read<User>('user'),
  token: read<string>('token'),
  tokenexpires: read<number>('tokenexpires'),
  signIn(user, token) {
    const tokenexpires = Date.now() + SESSION_MS;
    write('user', user);
    write('token', token);
    write('tokenexpires', tokenexpires);
    set({ user, token, tokenexpires });
  },
  setUser(user) {
    write('user', user);
    set({ user });
  },
  clear() {
    for (const key of ['user', 'token', 'tokenexpires']) localStorage.removeItem(key);
    set({ user: null, token: null, tokenexpires: null });
  },
}));

/** True when a stored session has passed its expiry. */
export function isExpired(tokenexpires: number | null): boolean {
  return tokenexpires !== null && Date.now() > tokenexpires;
}
