/** HTTP load with autocannon (in this process; the server runs in its own): rate and latency of 2xx. */
import autocannon, { type RawRequest, type Result } from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  /** Builds request number `n` (0, 1, 2, ... across all connections): method, path, headers, body. */
  request: (n: number) => RawRequest;
}

export interface LoadResult {
  /** 2xx answers per second over the run. */
  okPerSecond: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  durationS: number;
  statusCodes: Record<string, number>;
}

/** Runs `opts.connections` keep-alive connections for `opts.durationS` seconds. */
export function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        duration: opts.durationS,
        timeout: 30,
        requests: [{ setupRequest: (req) => Object.assign(req, opts.request(n++)) }],
      },
      (err: Error | null, result: Result) => {
        if (err) return reject(err);
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
        resolve({
          okPerSecond: result['2xx'] / result.duration,
          ok: result['2xx'],
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          errors: result.errors,
          non2xx: result.non2xx,
          durationS: result.duration,
          statusCodes,
        });
      },
    );
  });
}
