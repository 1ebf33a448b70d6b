import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOOK = fileURLToPath(new URL('./module-resolve.ts', import.meta.url));
const APP = fileURLToPath(new URL('../app.ts', import.meta.url));

/**
 * A Node process that loads the whole server (app.ts) with a hook that asks both our resolution and
 * Node's own for every import our hook answers, and prints how many it answered and where they differ.
 */
const CHILD = `
import { registerHooks } from 'node:module';
const { resolvePackageRelative } = await import(${JSON.stringify(HOOK)});
let answered = 0;
const differ = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    let nodeSaid;
    const ours = resolvePackageRelative(specifier, context, (s, c) => (nodeSaid = nextResolve(s, c)));
    if (nodeSaid) return nodeSaid;
    answered += 1;
    const node = nextResolve(specifier, context);
    const nodeFormat = node.format ?? 'unknown';
    if (node.url !== ours.url || (node.format && node.format !== ours.format))
      differ.push({ specifier, ours: [ours.url, ours.format], node: [node.url, nodeFormat] });
    return ours;
  },
});
await import(${JSON.stringify(APP)});
console.log(JSON.stringify({ answered, differ }));
`;

describe('the fast resolution of packages’ own imports', () => {
  it('resolves every module of the server to the URL and format Node itself gives', () => {
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout.trim().split('\n').at(-1) ?? '{}') as { answered: number; differ: unknown[] };
    expect(out.differ).toEqual([]);
    // drizzle-orm alone is about a thousand files.
    expect(out.answered).toBeGreaterThan(500);
  });
});
