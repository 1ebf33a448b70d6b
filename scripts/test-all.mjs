// `make test`: typecheck, lint, commit messages, the API document's lint, unit + integration (Vitest, PostgreSQL), browser (Playwright, Chromium).
// Ends with one line `N passed, N failed` totalling every suite; exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const results = { passed: 0, failed: 0 };
const gateFailures = [];
mkdirSync('.cache', { recursive: true });

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

/** The first line of a test's first failure message. */
function firstLine(messages) {
  return String(messages?.[0] ?? '')
    .split('\n')[0]
    .slice(0, 300);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (!run('typecheck', 'npm', ['run', '--silent', 'typecheck'])) gateFailures.push('typecheck');
if (!run('lint', 'npx', ['biome', 'check', '.'])) gateFailures.push('lint');
// Commit messages: `area: what changed`, at most 72 characters (commitlint.config.mjs).
if (!run('commit messages', 'node', ['scripts/commitlint.mjs'])) gateFailures.push('commit messages');

// The OpenAPI document client authors read: generated from the app, linted with Redocly's recommended rules.
if (
  !run('api document', 'node', ['apps/server/scripts/write-openapi.ts', '.cache/openapi.json']) ||
  !run('api document lint', 'npx', ['redocly', 'lint', '--config', 'redocly.yaml', '.cache/openapi.json'])
)
  gateFailures.push('api document');

// The web app the server-process and browser tests serve. The server's bundle they run is built by each of
// them (apps/server/test/global-setup.ts, e2e/serve.ts), so a run of either alone tests the sources as they are.
if (!run('web build', 'npm', ['run', '--silent', 'build', '--workspace', '@starlight/web']))
  gateFailures.push('web build');

// Unit and integration tests.
rmSync('.cache/vitest.json', { force: true });
const vitestOk = run('unit + integration', 'npx', [
  'vitest',
  'run',
  '--project',
  'shared',
  '--project',
  'web',
  '--project',
  'web-ui',
  '--project',
  'server',
  '--project',
  'bench',
  '--project',
  'cluster-unit',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=.cache/vitest.json',
]);
const vitest = readJson('.cache/vitest.json');
if (vitest) {
  results.passed += vitest.numPassedTests ?? 0;
  results.failed += (vitest.numFailedTests ?? 0) + (vitest.numTodoTests ?? 0) + (vitest.numPendingTests ?? 0);
}
if (!vitestOk) gateFailures.push('vitest');
// Failed tests are named again at the end, so the last lines of a CI log say which ones and why.
const failedTests = [];
for (const file of vitest?.testResults ?? []) {
  for (const test of file.assertionResults ?? []) {
    if (test.status === 'failed')
      failedTests.push(
        `${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${firstLine(test.failureMessages)}`,
      );
  }
}
if (!vitest) results.failed += 1;

// Browser tests against the built app.
// Absolute: Playwright resolves a relative output name against the config's directory.
const playwrightJson = resolve('.cache/playwright.json');
rmSync(playwrightJson, { force: true });
const e2eOk = run(
  'browser',
  'npx',
  ['playwright', 'test', '--config', 'e2e/playwright.config.ts', '--reporter=list,json'],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  },
);
const pw = existsSync(playwrightJson) ? readJson(playwrightJson) : null;
if (pw?.stats) {
  results.passed += pw.stats.expected ?? 0;
  results.failed += (pw.stats.unexpected ?? 0) + (pw.stats.flaky ?? 0) + (pw.stats.skipped ?? 0);
} else {
  results.failed += 1;
}
if (!e2eOk) gateFailures.push('playwright');
/** Walks Playwright's JSON report (suites within suites) for tests whose outcome was not the expected one. */
function collectPlaywright(suite, trail) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected' || test.status === 'flaky') {
        const error = test.results?.find((r) => r.error)?.error?.message;
        failedTests.push(
          `[${test.projectName}] ${[...trail, spec.title].join(' > ')} (${test.status}): ${firstLine([error])}`,
        );
      }
    }
  }
  for (const child of suite.suites ?? []) collectPlaywright(child, [...trail, child.title]);
}
for (const suite of pw?.suites ?? []) collectPlaywright(suite, [suite.title]);

if (gateFailures.length > 0) console.log(`\nFailed: ${gateFailures.join(', ')}`);
for (const line of failedTests) console.log(`  failed: ${stripVTControlCharacters(line)}`);
console.log(`\n${results.passed} passed, ${results.failed} failed`);
process.exit(gateFailures.length === 0 && results.failed === 0 ? 0 : 1);
