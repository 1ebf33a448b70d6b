/**
 * The server the browser tests run against: a fresh `starlight_e2e` database on the test PostgreSQL,
 * then Starlight itself from its bundle, as `make start` runs it (serving the built web app), on E2E_PORT.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildServer, DIST_DIR } from '../apps/server/scripts/build.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: adminUrl });
try {
  await client.connect();
} catch (err) {
  console.error(
    `PostgreSQL is not reachable at ${adminUrl}: ${(err as Error).message}. Start it (pg_ctlcluster 15 main start) or set TEST_DATABASE_URL.`,
  );
  process.exit(1);
}
// STARLIGHT_E2E_DB names another database, so that two checkouts can run their browser tests side by side.
const dbName = process.env.STARLIGHT_E2E_DB ?? 'starlight_e2e';
await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
await client.query(`CREATE DATABASE ${dbName}`);
await client.end();

// The browser tests buy through the checkout sandbox, whatever NODE_ENV the run was started with.
process.env.CHECKOUT_SANDBOX ??= 'on';
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
process.env.DATABASE_URL = url.toString();
// Built here too, so that a run of Playwright alone tests the sources as they are.
await buildServer();
await import(pathToFileURL(path.join(DIST_DIR, 'server.js')).href);
