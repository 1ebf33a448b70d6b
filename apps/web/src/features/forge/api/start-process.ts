/** POST /api/forge/startProcess (member) with an Idempotency-Key (DESIGN §3, §6): `{process, message}`. */
import type { ProcessResponse, StartProcessRequest } from '@starlight/shared';
import { api } from '../../../lib/api.ts';
import { useIdempotentMutation } from '../../../lib/use-idempotency-key.ts';
import { useRefreshAfterForge } from './refresh-after-forge.ts';

/** Starts `quantity` runs of a recipe: its input × quantity is taken at once. */
export function startProcess(body: StartProcessRequest, idempotencyKey: string): Promise<ProcessResponse> {
  return api<ProcessResponse>('POST', '/forge/startProcess', body, { idempotencyKey });
}

/** The mutation (variables: the body, keyed per submission); balances, history and processes refresh after it. */
export function useStartProcess() {
  const refresh = useRefreshAfterForge();
  return useIdempotentMutation({ send: startProcess, onSuccess: refresh });
}
