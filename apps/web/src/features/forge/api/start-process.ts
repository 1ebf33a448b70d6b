/** POST /api/forge/startProcess (member) with an Idempotency-Key (DESIGN §3, §6): `{process, message}`. */
import type { ProcessResponse, StartProcessRequest } from '@starlight/shared';
import { useMutation } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../../lib/api.ts';
import { useRefreshAfterForge } from './refresh-after-forge.ts';

/** Starts `quantity` runs of a recipe: its input × quantity is taken at once. */
export function startProcess(
  body: StartProcessRequest,
  idempotencyKey = newIdempotencyKey(),
): Promise<ProcessResponse> {
  return api<ProcessResponse>('POST', '/forge/startProcess', body, { idempotencyKey });
}

/** The mutation; balances, history and the process list refresh after it. */
export function useStartProcess() {
  const refresh = useRefreshAfterForge();
  return useMutation({ mutationFn: (body: StartProcessRequest) => startProcess(body), onSuccess: refresh });
}
