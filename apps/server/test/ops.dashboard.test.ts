/**
 * The Grafana dashboard of deploy/: every metric its panels query is one that a replica's
 * GET /api/metrics exports (with DATABASE_READ_URL set, as in the cluster, so the standby's lag is there).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.ts';
import { testDatabaseUrl } from './test-db.ts';

const t = useTestApp({ DATABASE_READ_URL: testDatabaseUrl() });

const deploy = (name: string) => readFileSync(new URL(`../../../deploy/${name}`, import.meta.url), 'utf8');

describe('deploy/grafana-dashboard.json', () => {
  it('queries only metrics the server exports', async () => {
    // One request first: a labelled series exists once it has a sample.
    expect((await t.app.inject({ method: 'GET', url: '/api/bank/currencies' })).statusCode).toBe(200);
    const scrape = await t.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(scrape.statusCode).toBe(200);
    const exported = new Set(
      scrape.body
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'))
        .map((l) => l.split(/[{ ]/)[0]),
    );

    const dashboard = JSON.parse(deploy('grafana-dashboard.json')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const queried = new Set(
      dashboard.panels.flatMap((p) => p.targets.flatMap((q) => q.expr.match(/\bstarlight_[a-z0-9_]+/g) ?? [])),
    );
    expect(queried.size).toBeGreaterThanOrEqual(10);
    for (const metric of queried) expect(exported, metric).toContain(metric);
  });

  it('is fed by a scrape of every replica’s /api/metrics', () => {
    expect(deploy('prometheus.yml')).toContain('metrics_path: /api/metrics');
  });
});
