/**
 * The server's floors (issue 22 §2): a module reaches another only through that module's service
 * (`*.service.ts`) or its public file (`<module>.public.ts`, which says why each name is public), never
 * its private SQL (`*.queries.ts`) or internals; and the floors below the plugins and the modules (db/,
 * lib/, http/) import neither, nor the top floor (app.ts, seed.ts), not even a type; and a service holds
 * no SQL. Read from the source files.
 */
import { readdirSync, readFileSync } from 'node:fs';
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

  it('keeps db/, lib/ and http/ below the plugins and the modules', () => {
    const wrong = [...sources('db'), ...sources('lib'), ...sources('http')].flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith('modules/') || t.startsWith('plugins/') || t === 'seed.ts' || t === 'app.ts')
        .map((t) => `${file} -> ${t}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps SQL out of the services: a module writes it in its *.queries.ts (issue 22 §3)', () => {
    const services = sources('modules').filter((f) => /\.(service|events|grants|batch)\.ts$/.test(f));
    expect(services.length).toBeGreaterThanOrEqual(15);
    const withSql = services.filter((file) => /\bsql`/.test(readFileSync(path.join(SRC, file), 'utf8')));
    expect(withSql).toEqual([]);
  });
});
