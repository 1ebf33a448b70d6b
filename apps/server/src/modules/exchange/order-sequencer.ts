/**
 * Per-pair sequencing of orders (DESIGN §5 and §9): an order for a pair whose previous batch is being
 * placed waits for it, then goes with every other order that arrived meanwhile, in arrival order, as one
 * batch in one transaction (group commit). A batch costs the lock, the reads and the commit of one order,
 * so a busy pair places many orders per round trip; an idle pair places an order at once. The pair's
 * advisory lock still orders batches between server processes. Each order keeps its own outcome: a
 * refused order does not stop the others, and should a whole batch fail, its orders are placed one by one.
 */
import type { PlaceOrderResponse } from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ExchangeChanges, type OrderJob, placeOrders } from './exchange.service.ts';

/** The most orders one batch takes (the rest wait for the next). */
const MAX_BATCH = 32;

interface Waiting extends OrderJob {
  resolve(response: PlaceOrderResponse): void;
  reject(error: unknown): void;
}

export class OrderSequencer {
  private readonly db: Db;
  private readonly onChanges: (changes: ExchangeChanges) => void;
  /** Per pair with a batch under way, the orders waiting for the next one. */
  private readonly waiting = new Map<string, Waiting[]>();

  /** `onChanges` receives what each committed batch changed (for the live feed). */
  constructor(db: Db, onChanges: (changes: ExchangeChanges) => void) {
    this.db = db;
    this.onChanges = onChanges;
  }

  /**
   * Places `job`'s order with the next batch of its pair. Resolves to the order's answer
   * (`{order, trades, tx:{note}, message}`); rejects with its error (see `placeOrders`).
   */
  submit(job: OrderJob): Promise<PlaceOrderResponse> {
    return new Promise((resolve, reject) => {
      const pairId = job.input.pair;
      const queue = this.waiting.get(pairId);
      const entry = { ...job, resolve, reject };
      if (queue) {
        queue.push(entry);
        return;
      }
      this.waiting.set(pairId, [entry]);
      void this.drain(pairId);
    });
  }

  private async drain(pairId: string): Promise<void> {
    const queue = this.waiting.get(pairId) ?? [];
    while (queue.length > 0) await this.place(pairId, queue.splice(0, MAX_BATCH));
    this.waiting.delete(pairId);
  }

  private async place(pairId: string, batch: Waiting[]): Promise<void> {
    const changes = new ExchangeChanges();
    let outcomes: Awaited<ReturnType<typeof placeOrders>>;
    try {
      outcomes = await inTransaction(this.db, (tx) => placeOrders(tx, pairId, batch, changes));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      // No single order's fault is known: place each on its own, so only a faulty one fails.
      for (const job of batch) await this.place(pairId, [job]);
      return;
    }
    this.onChanges(changes);
    for (const [i, outcome] of outcomes.entries()) {
      const job = batch[i];
      if (!job) continue;
      if (outcome.ok) job.resolve(outcome.response);
      else job.reject(outcome.error);
    }
  }
}
