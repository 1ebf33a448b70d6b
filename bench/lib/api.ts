import type { CreateCurrencyRequest } from '@starlight/shared';
/** A small JSON client for setting a benchmark up through the public API (not used under load). */

export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, what: string) {
    super(`${what} -> ${status}: ${body.slice(0, 500)}`);
    this.status = status;
    this.body = body;
  }
}

export interface Api {
  get<T>(path: string, token?: string): Promise<T>;
  post<T>(path: string, body: unknown, token?: string): Promise<T>;
}

/** A client of the server at `baseUrl`. Non-2xx answers throw ApiError. */
export function api(baseUrl: string): Api {
  async function call<T>(method: string, path: string, body: unknown, token: string | undefined): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, text, `${method} ${path}`);
    return JSON.parse(text) as T;
  }
  return {
    get: (path, token) => call('GET', path, undefined, token),
    post: (path, body, token) => call('POST', path, body, token),
  };
}

/** Maps `items` through `fn` with at most `concurrency` calls in flight; keeps the order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

/**
 * The `createCurrency` request (DESIGN §3) of a plain test currency: transferable, mintable and
 * burnable, no deposits or withdrawals, named `${label} ${ticker}`. `extra` adds or overrides fields.
 * Used by the bench cases and by the cluster's test and bench.
 */
export function testCurrencyRequest(
  ticker: string,
  precision: number,
  label: string,
  extra: Partial<CreateCurrencyRequest> = {},
): CreateCurrencyRequest {
  return {
    ticker,
    name: `${label} ${ticker}`,
    precision,
    canDeposit: false,
    canWithdraw: false,
    canTransfer: true,
    canMint: true,
    canBurn: true,
    ...extra,
  };
}
