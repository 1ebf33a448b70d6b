/**
 * The load `make test-cluster` and `make bench-cluster` put on a cluster: workers, each a
 * member of its own, send transfers or place resting orders through the load balancer, one request at a
 * time, each with an Idempotency-Key; a request that fails on the way (no answer, 502, 503, 504) is sent
 * again with the same key until it is acknowledged. Every acknowledged operation is counted per worker,
 * so the ledger can be checked against them afterwards: each in it exactly once.
 */
import { randomUUID } from 'node:crypto';

/** One worker: its member's token, and what it does. */
export interface LoadWorker {
  token: string;
  /** A transfer of `amount` of `currencyId` to `to`, or a sell order of 1 at `price` on `pair` (resting). */
  job:
    | { kind: 'transfer'; to: string; currencyId: number; amount: string }
    | { kind: 'order'; pair: string; price: string };
}

export interface LoadResult {
  /** Operations acknowledged (200), per worker, in the order of `workers`. */
  acked: number[];
  /** Answers that were not an acknowledgement and were retried, by status (`network (why)` when none came). */
  retried: Record<string, number>;
  /** Requests sent in all, retries included. */
  requests: number;
  /** Milliseconds from the first request to the last answer. */
  ms: number;
  /** Each acknowledgement's latency in milliseconds, retries included (for percentiles). */
  latencies: number[];
}

const RETRYABLE = new Set([502, 503, 504]);
/** How long one operation may keep failing before the load gives up (and the test fails). */
const GIVE_UP_MS = 60_000;

/** Sends one operation until it is acknowledged; returns the failed attempts' statuses. */
async function untilAcked(base: string, w: LoadWorker, onTry: () => void): Promise<string[]> {
  const key = randomUUID();
  const [path, body] =
    w.job.kind === 'transfer'
      ? ['/api/bank/p2pTransfer', { recipientNickName: w.job.to, currencyId: w.job.currencyId, amount: w.job.amount }]
      : ['/api/cex/placeOrder', { pair: w.job.pair, buySide: false, initialAmount: '1', price: w.job.price }];
  const failures: string[] = [];
  const until = Date.now() + GIVE_UP_MS;
  for (;;) {
    onTry();
    let status: string;
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}`, 'idempotency-key': key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      if (res.status === 200) return failures;
      if (!RETRYABLE.has(res.status)) throw new Error(`${path} answered ${res.status}: ${text}`);
      status = String(res.status);
    } catch (err) {
      if ((err as Error).message.includes(' answered ')) throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      status = `network (${cause?.code ?? cause?.message ?? (err as Error).message})`;
    }
    failures.push(status);
    if (Date.now() > until) throw new Error(`${path} kept failing for ${GIVE_UP_MS} ms: ${failures.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts the workers against `base` (the load balancer's URL). `stop()` lets each finish the operation
 * it is on (until acknowledged) and resolves with the counts; a non-retryable answer rejects it.
 */
export function startLoad(base: string, workers: LoadWorker[]): { stop(): Promise<LoadResult> } {
  let running = true;
  const result: LoadResult = { acked: workers.map(() => 0), retried: {}, requests: 0, ms: 0, latencies: [] };
  const started = Date.now();
  const loops = workers.map(async (w, i) => {
    while (running) {
      const t0 = performance.now();
      const failures = await untilAcked(base, w, () => {
        result.requests += 1;
      });
      result.latencies.push(performance.now() - t0);
      result.acked[i] = (result.acked[i] ?? 0) + 1;
      for (const f of failures) result.retried[f] = (result.retried[f] ?? 0) + 1;
    }
  });
  const all = Promise.all(loops);
  // A worker that throws stops the others too.
  all.catch(() => {
    running = false;
  });
  return {
    async stop() {
      running = false;
      await all;
      result.ms = Date.now() - started;
      return result;
    },
  };
}
