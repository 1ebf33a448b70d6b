/**
 * Writes the OpenAPI document of the app, as `/api/docs/json` serves it, to a file (default
 * `.cache/openapi.json`), for `make test`'s `redocly lint`. The app runs on a throwaway embedded
 * database, so nothing but Node is needed. Usage: node apps/server/scripts/write-openapi.ts [file]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const out = path.resolve(process.argv[2] ?? '.cache/openapi.json');
const dataDir = mkdtempSync(path.join(tmpdir(), 'starlight-openapi-'));
try {
  const { app } = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: process.env.PUBLIC_URL ?? 'https://starlight.example.org',
    }),
  );
  await app.ready();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(app.swagger(), null, 2));
  await app.close();
  console.log(`OpenAPI document written to ${out}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
