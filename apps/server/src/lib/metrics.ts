/**
 * Process-wide Prometheus metrics of the domain (DESIGN §9): ledger postings and matching time. They are
 * counted where the work happens (the ledger's posting, the exchange's engine call); the `/api/metrics`
 * route (plugins/metrics.ts) serves them with the HTTP, pool and WebSocket figures of its app.
 */
import { Counter, Histogram, Registry } from 'prom-client';

/** The registry of the process-wide domain metrics below. */
export const domainMetrics = new Registry();

/** Posting statements run by the ledger, and the ledger rows they wrote (a rolled-back batch included). */
export const ledgerPostings = new Counter({
  name: 'starlight_ledger_postings_total',
  help: 'Posting statements run by the ledger (one per operation or batch)',
  registers: [domainMetrics],
});
export const ledgerRows = new Counter({
  name: 'starlight_ledger_rows_total',
  help: 'Ledger rows (bank_transactions) written by posting statements',
  registers: [domainMetrics],
});

/** Seconds the matching engine spent on one incoming order (in memory, under the pair lock). */
export const matchingSeconds = new Histogram({
  name: 'starlight_matching_seconds',
  help: 'Time the matching engine spent matching one incoming order, in seconds',
  buckets: [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05],
  registers: [domainMetrics],
});
