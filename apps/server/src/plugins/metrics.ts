/**
 * `GET /api/metrics` (DESIGN §9): Prometheus text. Per app: requests by route, method and status with
 * their latency, the PostgreSQL pool's connections, the WebSocket clients; per process: the domain
 * metrics of lib/metrics.ts (ledger postings, matching time) and Node's own (memory, event loop).
 * Access is public: a scraper holds no member token, and nothing here names a member or an amount.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { domainMetrics } from '../lib/metrics.ts';

/** Node's default metrics, registered once per process (a second registration would throw). */
const processMetrics = new Registry();
collectDefaultMetrics({ register: processMetrics, prefix: 'starlight_' });

/**
 * The standby's lag in seconds: the age of the last transaction it replayed, or 0 when it has replayed
 * everything it received (an idle primary sends nothing, and its last replayed commit only gets older);
 * 0 on a server that is not a standby.
 */
const REPLICATION_LAG_SQL = `SELECT CASE
  WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
  ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
END AS lag`;

const metricsPlugin: FastifyPluginAsync<{ database: Database }> = async (app: FastifyInstance, { database }) => {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'starlight_http_request_duration_seconds',
    help: 'HTTP requests by route, method and status: count and latency in seconds',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const pool = database.pool;
  new Gauge({
    name: 'starlight_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on the embedded database',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  const readPool = database.readPool;
  if (readPool) {
    new Gauge({
      name: 'starlight_db_replication_lag_seconds',
      help: 'How far the standby of DATABASE_READ_URL is behind the primary, in seconds (0 when it has replayed all it received)',
      registers: [registry],
      async collect() {
        const { rows } = await readPool.query<{ lag: string }>(REPLICATION_LAG_SQL);
        this.set(Number(rows[0]?.lag ?? 0));
      },
    });
  }
  new Gauge({
    name: 'starlight_websocket_clients',
    help: 'WebSocket clients connected to this process',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('live') ? app.live.hub.clients.size : 0);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    // Unknown paths share one label, so a scanner cannot grow the label set without bound.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/api/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const merged = Registry.merge([registry, domainMetrics, processMetrics]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });
};

export const metrics = fp(metricsPlugin, { name: 'metrics' });
