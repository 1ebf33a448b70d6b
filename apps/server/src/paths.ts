/**
 * Where the server's files are, the same whether it runs from its sources (`src/`) or from the bundle
 * `make build` writes (`dist/`, scripts/build.ts): both folders sit directly in the server's package, and
 * this module's URL is its folder's in either case (bundled, it is the bundle's).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's folder (`apps/server`), absolute. */
export const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The database migrations Drizzle applies at start-up (`apps/server/drizzle`). */
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');

/** The web app's build the server serves by default (`apps/web/dist`). */
export const WEB_DIST_DIR = path.resolve(SERVER_ROOT, '../web/dist');
