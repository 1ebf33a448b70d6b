/**
 * Starts Starlight (`node apps/server/src/server.js`, `make start`). Plain JavaScript, the one file of the
 * server that is: Node strips a TypeScript file's types with a WebAssembly compiler it loads on first use
 * (CPU on every start), and the entry is read before anything can turn the
 * compile cache on. From here every module comes from that cache once it has been stripped once.
 *
 * In order: Node's compile cache (the type-stripped and compiled modules kept on disk, in
 * `NODE_COMPILE_CACHE` or the system's temporary folder), the fast resolution of packages' own imports
 * (lib/module-resolve.ts: less memory and a quicker start), then main.ts. Both only apply to modules
 * loaded after them, hence the dynamic imports.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { registerFastPackageResolve } = await import('./lib/module-resolve.ts');
registerFastPackageResolve();
await import('./main.ts');
