/**
 * Creates an empty test database, migrates and seeds it once before any test file runs; builds the
 * server's bundle the server-process tests start (server-process.ts), and the web app when it was never
 * built. Fails loudly, naming what to install, when PostgreSQL cannot be reached (DESIGN §2: never skip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { buildServer } from '../scripts/build.ts';
import { buildApp } from '../src/app.ts';
import { WEB_DIST_DIR } from '../src/paths.ts';
import { ADMIN_URL, TEST_DB_NAME, testConfig } from './test-db.ts';

export default async function setup(): Promise<void> {
  await buildServer();
  if (!existsSync(path.join(WEB_DIST_DIR, 'index.html'))) {
    const web = spawnSync('npm', ['run', '--silent', 'build', '--workspace', '@starlight/web'], { stdio: 'inherit' });
    if (web.status !== 0) throw new Error('the web app did not build (npm run build --workspace @starlight/web)');
  }
  const client = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(err as Error).message}). ` +
        'Start it (pg_ctlcluster 15 main start), install it (apt-get install -y postgresql), or set TEST_DATABASE_URL.',
    );
  }
  await client.query(`DROP DATABASE IF EXISTS ${TEST_DB_NAME} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${TEST_DB_NAME}`);
  await client.end();
  const config = testConfig({ RATE_LIMIT_AUTH: undefined, RATE_LIMIT_LOGIN_FAILURES: undefined });
  const { app } = await buildApp(config);
  await app.close();
}
