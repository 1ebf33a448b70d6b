/**
 * Bundles the server for production (`make build`), for a fast start-up: `src/server.js` and everything it
 * imports of our own code and of the pure-JavaScript packages into `apps/server/dist/` (`server.js`, the
 * entry, and a chunk for what it loads once Node's compile cache is on). Node then reads, resolves and
 * compiles three files at start-up instead of over a thousand, each with its package.json looked up
 * (docs/decisions/0007-server-bundle.md).
 *
 * Left out, loaded by Node from node_modules as before:
 * - packages with native code or files they read beside themselves (the embedded database's WebAssembly,
 *   argon2's binary, pino's worker threads; Swagger UI is bundled and told where its pages are);
 * - the heavy SDKs imported only when their feature is configured or first used (Stripe, viem, nodemailer,
 *   ioredis): bundled, they would be compiled on every start.
 * Not minified: a stack trace's line in the bundle sits under a `// apps/server/src/...` comment naming
 * its source, and the linked source map maps it back (`node --enable-source-maps`).
 *
 * `node apps/server/scripts/build.ts` builds; `--metafile` also prints what the bundle holds, by size.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { analyzeMetafile, build, type Metafile } from 'esbuild';
import { SERVER_ROOT } from '../src/paths.ts';

/** The bundle's folder; `node apps/server/dist/server.js` starts it. */
export const DIST_DIR = path.join(SERVER_ROOT, 'dist');

/** Packages loaded from node_modules at run time, not copied into the bundle (see above). */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'pino',
  'thread-stream',
  'pg-native',
  'stripe',
  'viem',
  'nodemailer',
  'ioredis',
];

/**
 * Writes the bundle into DIST_DIR and removes what an earlier build left there (its chunks are named by
 * content). Returns esbuild's metafile; throws esbuild's error when the sources do not build.
 */
export async function buildServer(): Promise<Metafile> {
  const result = await build({
    entryPoints: [path.join(SERVER_ROOT, 'src/server.js')],
    outdir: DIST_DIR,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: EXTERNAL,
    // Bundled CommonJS packages `require` Node's own modules: an ES module has no `require` of its own.
    banner: {
      js: "import { createRequire as __starlightCreateRequire } from 'node:module'; const require = __starlightCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(file)));
  for (const name of readdirSync(DIST_DIR)) {
    const file = path.join(DIST_DIR, name);
    if (!written.has(file)) rmSync(file, { force: true });
  }
  return result.metafile;
}

if (import.meta.main) {
  const metafile = await buildServer();
  if (process.argv.includes('--metafile')) console.log(await analyzeMetafile(metafile));
}
