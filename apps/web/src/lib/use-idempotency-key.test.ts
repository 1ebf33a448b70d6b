// @vitest-environment jsdom
/** One Idempotency-Key per submission (DESIGN §3): kept across retries of one body, fresh for another. */
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useIdempotencyKey } from './use-idempotency-key.ts';

describe('useIdempotencyKey', () => {
  it('keeps the key of a resent body, renews it for a changed body, and drops it after success', () => {
    const { result } = renderHook(() => useIdempotencyKey());
    const first = result.current.keyFor({ amount: '1' });
    expect(result.current.keyFor({ amount: '1' })).toBe(first);
    const changed = result.current.keyFor({ amount: '2' });
    expect(changed).not.toBe(first);
    result.current.done();
    expect(result.current.keyFor({ amount: '2' })).not.toBe(changed);
  });

  it('keys a call without a body too, per target', () => {
    const { result } = renderHook(() => useIdempotencyKey());
    const a = result.current.keyFor(undefined, 'a');
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.current.keyFor(undefined, 'a')).toBe(a);
    expect(result.current.keyFor(undefined, 'b')).not.toBe(a);
  });
});
