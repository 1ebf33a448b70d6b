import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts'],
        },
      },
      {
        // The web's components in jsdom, the API mocked with MSW (apps/web/src/test/).
        test: {
          name: 'web-ui',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: 'http://localhost:3000/' } },
          setupFiles: ['apps/web/src/test/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The benchmarks' pure helpers (bench/lib), no server or database.
        test: {
          name: 'bench',
          include: ['bench/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        // The cluster launcher's pure helpers (cluster/*.unit.test.ts), no cluster.
        test: {
          name: 'cluster-unit',
          include: ['cluster/**/*.unit.test.ts'],
        },
      },
      {
        // `make test-cluster` only: a cluster of its own under faults (cluster/cluster.test.ts).
        test: {
          name: 'cluster',
          include: ['cluster/**/*.test.ts'],
          exclude: ['cluster/**/*.unit.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
      {
        // `make soak` only: the ledger model for 10,000 steps or more (apps/server/test/ledger.soak.ts).
        test: {
          name: 'soak',
          include: ['apps/server/test/**/*.soak.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 4 * 3600_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
