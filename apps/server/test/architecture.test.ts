/**
 * The server's floors: a module reaches another only through that module's service
 * (`*.service.ts`) or its public file (`<module>.public.ts`, which says why each name is public), never
 * its private SQL (`*.queries.ts`) or internals; and the floors below the plugins and the modules (db/,
 * lib/, http/) import neither, nor the top floor (app.ts, seed.ts), not even a type; and a service holds
 * no SQL. Read from the source files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every non-test .ts file under `dir` (relative to src/). */
function sources(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

/** The relative imports of `file` (relative to src/), resolved to paths relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'";]*?from\s+'(\.[^']+)'/g)].map((m) => m[1] as string);
  return specifiers.map((s) => path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), s)));
}

const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1] : null);

/**
 * The module graph: for each module, the modules its files import (types included), each with the first
 * import that makes the arrow.
 */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources('modules')) {
    const from = moduleOf(file) as string;
    const arrows = graph.get(from) ?? new Map<string, string>();
    graph.set(from, arrows);
    for (const target of importsOf(file)) {
      const to = moduleOf(target);
      if (to && to !== from && !arrows.has(to)) arrows.set(to, `${file} -> ${target}`);
    }
  }
  return graph;
}

/** Every loop of `graph` found by a depth-first walk, each as its modules and the imports that close it. */
function moduleLoops(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const loops: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (m: string) => {
    state.set(m, 'open');
    path.push(m);
    for (const to of [...(graph.get(m)?.keys() ?? [])].sort()) {
      if (state.get(to) === 'open') {
        const loop = [...path.slice(path.indexOf(to)), to];
        const via = loop.slice(1).map((n, i) => graph.get(loop[i] as string)?.get(n));
        loops.push(`${loop.join(' -> ')} (${via.join('; ')})`);
      } else if (!state.has(to)) walk(to);
    }
    path.pop();
    state.set(m, 'done');
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) walk(m);
  return loops;
}

/**
 * The modules' floors, from the bottom (ARCHITECTURE.md, server): a module imports only from floors below
 * its own, never up or sideways, so no loop can form. A new module takes the floor above the highest one
 * it imports from.
 */
const FLOORS: Record<string, number> = {
  accounts: 0,
  exports: 0,
  ledger: 0,
  mfa: 0,
  notifications: 0,
  balances: 1,
  items: 1,
  oversight: 1,
  apikeys: 2,
  bank: 2,
  capp: 2,
  chips: 3,
  exchange: 3,
  forge: 3,
  leaderboard: 3,
  market: 3,
  passkeys: 3,
  settlements: 3,
  checkout: 4,
  reports: 4,
  users: 4,
};

/** The repository's root, and its product files: the non-test .ts and .tsx of apps/<app>/src and packages/shared/src. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
function productFiles(): string[] {
  const dirs = [
    ...readdirSync(path.join(ROOT, 'apps')).map((app) => path.join('apps', app, 'src')),
    path.join('packages', 'shared', 'src'),
  ];
  return dirs
    .filter((dir) => existsSync(path.join(ROOT, dir)))
    .flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
        .map((f) => path.join(dir, f)),
    );
}

/** A product file's most lines (house rules). */
const MAX_LINES = 400;

describe('the server’s import graph', () => {
  it('reaches another module only through its service or its public file', () => {
    const wrong: string[] = [];
    for (const file of sources('modules')) {
      for (const target of importsOf(file)) {
        const to = moduleOf(target);
        if (to === null || to === moduleOf(file)) continue;
        if (!/\.(service|public)\.ts$/.test(target)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has every public file say why it is public, and export only what other modules use', () => {
    const publicFiles = sources('modules').filter((f) => f.endsWith('.public.ts'));
    expect(publicFiles.length).toBeGreaterThanOrEqual(7);
    const used = new Set<string>();
    for (const file of sources('modules'))
      for (const target of importsOf(file)) if (target.endsWith('.public.ts')) used.add(target);
    for (const file of publicFiles) {
      expect(readFileSync(path.join(SRC, file), 'utf8').startsWith('/**'), file).toBe(true);
      expect(used.has(file), `${file} is imported by another module`).toBe(true);
    }
  });

  it('has no loop between modules: every import goes to a module on a lower floor', () => {
    const graph = moduleGraph();
    expect(moduleLoops(graph)).toEqual([]);
    expect([...graph.keys()].filter((m) => FLOORS[m] === undefined)).toEqual([]);
    const upOrSideways = [...graph].flatMap(([from, arrows]) =>
      [...arrows]
        .filter(([to]) => (FLOORS[to] ?? Number.POSITIVE_INFINITY) >= (FLOORS[from] as number))
        .map(([to, via]) => `${from} (floor ${FLOORS[from]}) -> ${to} (floor ${FLOORS[to]}): ${via}`),
    );
    expect(upOrSideways).toEqual([]);
  });

  it('finds a loop when there is one', () => {
    const planted = new Map([
      ['a', new Map([['b', 'a.ts -> b.ts']])],
      ['b', new Map([['c', 'b.ts -> c.ts']])],
      ['c', new Map([['a', 'c.ts -> a.ts']])],
    ]);
    expect(moduleLoops(planted)).toEqual(['a -> b -> c -> a (a.ts -> b.ts; b.ts -> c.ts; c.ts -> a.ts)']);
  });

  it(`keeps every product file at ${MAX_LINES} lines or fewer`, () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThanOrEqual(300);
    const long = files
      .map((f) => ({ f, lines: readFileSync(path.join(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('keeps db/, lib/ and http/ below the plugins and the modules', () => {
    const wrong = [...sources('db'), ...sources('lib'), ...sources('http')].flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith('modules/') || t.startsWith('plugins/') || t === 'seed.ts' || t === 'app.ts')
        .map((t) => `${file} -> ${t}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps SQL out of the services: a module writes it in its *.queries.ts', () => {
    const services = sources('modules').filter((f) => /\.(service|events|grants|batch)\.ts$/.test(f));
    expect(services.length).toBeGreaterThanOrEqual(15);
    const withSql = services.filter((file) => /\bsql`/.test(readFileSync(path.join(SRC, file), 'utf8')));
    expect(withSql).toEqual([]);
  });

  it('has every file that reads another module’s table say which and why', () => {
    // Which module owns each table: the one that writes it (ARCHITECTURE.md, server).
    const owners: Record<string, readonly string[]> = {
      accounts: ['users', 'access_logs', 'access_log_counts'],
      users: ['mail_tokens', 'wallet_nonces', 'user_sessions'],
      mfa: ['user_totp', 'user_recovery_codes', 'mfa_tokens', 'security_holds'],
      passkeys: ['user_passkeys', 'webauthn_challenges'],
      oversight: ['admin_logs', 'alert_level'],
      ledger: ['balances', 'bank_transactions'],
      bank: ['currencies'],
      settlements: ['settlements', 'withdraw_addresses', 'withdraw_allow_lists'],
      reports: [
        'ledger_rollup',
        'ledger_rollup_state',
        'ledger_audit_baseline',
        'audit_check',
        'user_stats_daily',
        'user_stats_hourly',
        'user_holdings',
      ],
      exchange: ['exchange_pairs', 'exchange_orders', 'exchange_trades', 'trade_candles', 'trade_candles_state'],
      items: ['item_collections', 'items'],
      checkout: ['checkout_packages', 'checkout_transactions', 'checkout_events'],
      capp: ['capp_auth_requests', 'capp_codes', 'capp_grants'],
      leaderboard: ['leaderboard_state', 'leaderboard_entries', 'leaderboard_blocks'],
      forge: ['forge_recipes', 'forge_processes'],
      market: ['market_listings', 'market_open_counts'],
      apikeys: ['api_keys'],
      exports: ['export_links'],
      notifications: [
        'notifications',
        'notification_settings',
        'broadcasts',
        'notification_reads',
        'notification_cursors',
      ],
    };
    const ownerOf = new Map(Object.entries(owners).flatMap(([m, tables]) => tables.map((t) => [t, m] as const)));
    // Every table of the schema has an owner here, so a new table cannot slip past the rule.
    const schemaTables = sources('db/schema').flatMap((f) =>
      [...readFileSync(path.join(SRC, f), 'utf8').matchAll(/export const (\w+) = pgTable\(\s*'([a-z_]+)'/g)].map(
        (m) => [m[1] as string, m[2] as string] as const,
      ),
    );
    expect(schemaTables.length).toBeGreaterThanOrEqual(30);
    expect(schemaTables.filter(([, t]) => t !== 'idempotency_keys' && !ownerOf.has(t))).toEqual([]);
    const tableOfExport = new Map(schemaTables);
    const unexplained: string[] = [];
    let reading = 0;
    for (const file of sources('modules')) {
      const module = moduleOf(file);
      const text = readFileSync(path.join(SRC, file), 'utf8');
      const named = new Set<string>();
      for (const [table, owner] of ownerOf) {
        if (owner !== module && new RegExp(`\\b(FROM|JOIN|UPDATE|INTO)\\s+${table}\\b`).test(text)) named.add(table);
      }
      const fromSchema = /import \{([^}]*)\} from '[./]*db\/schema\/index\.ts'/.exec(text)?.[1] ?? '';
      for (const name of fromSchema.split(',').map((n) => n.replace('type ', '').trim())) {
        const table = tableOfExport.get(name);
        if (table && ownerOf.get(table) !== module && ownerOf.has(table)) named.add(table);
      }
      if (named.size === 0) continue;
      reading++;
      const head = text.slice(0, text.indexOf('*/'));
      const why = head.slice(head.indexOf("Reads other modules' tables:"));
      for (const table of named)
        if (!head.includes("Reads other modules' tables:") || !why.includes(`\`${table}\``))
          unexplained.push(`${file}: ${table}`);
    }
    expect(reading).toBeGreaterThanOrEqual(20);
    expect(unexplained).toEqual([]);
  });
});
