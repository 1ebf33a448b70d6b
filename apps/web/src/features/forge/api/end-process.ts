/** POST /api/forge/endProcess (member) with an Idempotency-Key (DESIGN §6): claim or cancel, `{process, message}`. */
import type { EndProcessRequest, ProcessResponse } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterForge } from './refresh-after-forge.ts';

/** Claims a finished process (`cancel: false`) or cancels one in its first 10 minutes (`cancel: true`). */
export function endProcess(body: EndProcessRequest, idempotencyKey = newIdempotencyKey()): Promise<ProcessResponse> {
  return api<ProcessResponse>('POST', '/forge/endProcess', body, { idempotencyKey });
}

/** The mutation; balances, history and the process list refresh after it. */
export function useEndProcess() {
  const refresh = useRefreshAfterForge();
  return useMutation({ mutationFn: (body: EndProcessRequest) => endProcess(body), onSuccess: refresh });
}
