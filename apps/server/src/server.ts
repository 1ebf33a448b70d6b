/**
 * Starts Starlight (`node apps/server/src/server.ts`, `make start`): registers the fast resolution of
 * packages' own imports (lib/module-resolve.ts: less memory and a quicker start), then loads and runs
 * main.ts. The hook only applies to modules loaded after it, hence the dynamic import.
 */
import { registerFastPackageResolve } from './lib/module-resolve.ts';

registerFastPackageResolve();
await import('./main.ts');
