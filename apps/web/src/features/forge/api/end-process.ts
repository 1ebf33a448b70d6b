/** POST /api/forge/endProcess (member) with an Idempotency-Key (DESIGN §6): claim or cancel, `{process, message}`. */
import type { EndProcessRequest, ProcessResponse } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterForge } from './refresh-after-forge.ts';

/** Claims a finished process (`cancel: false`) or cancels one in its first 10 minutes (`cancel: true`). */
export function endProcess(body: EndProcessRequest, idempotencyKey: string): Promise<ProcessResponse> {
  return api<ProcessResponse>('POST', '/forge/endProcess', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per process and body); balances, history and processes refresh. */
export function useEndProcess() {
  const refresh = useRefreshAfterForge();
  return useIdempotentMutation({ send: endProcess, target: (body) => body.processId, onSuccess: refresh });
}
