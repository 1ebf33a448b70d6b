/**
 * The HTTP client. Every failure becomes an ApiError whose `message` is the server's `message`, else a
 * transport message of SPEC §8 ('Network Error', 'Request aborted', 'Request failed with status code N').
 * 'Not authorized' and 'Token expired' end the session (SPEC §4).
 */
import { useSession } from './session.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly errors: Array<{ field: string; message: string }>;
  constructor(message: string, status: number, errors: Array<{ field: string; message: string }> = []) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

/** SPEC §4: messages that sign the member out. */
const LOGOUT_MESSAGES = ['Not authorized', 'Token expired', 'Authorization error', 'Unauthorized'];

export interface RequestOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
}

/**
 * Calls the API: `method` and `path` (under /api), an optional JSON body. Returns the parsed body.
 * Throws ApiError with the message to toast.
 */
export async function api<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<T> {
  const { token } = useSession.getState();
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: opts.signal ?? null,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw new ApiError('Request aborted', 0);
    throw new ApiError('Network Error', 0);
  }
  let data: { message?: string; errors?: Array<{ field: string; message: string }> } | null = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const message = data?.message ?? `Request failed with status code ${res.status}`;
    if (LOGOUT_MESSAGES.some((m) => message.includes(m))) useSession.getState().clear();
    throw new ApiError(message, res.status, data?.errors ?? []);
  }
  return data as T;
}

/** A fresh Idempotency-Key for one money-moving submission (DESIGN §3). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
