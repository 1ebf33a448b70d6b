import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN, BASE_URL, E2E_PORT } from './fixtures.ts';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(`Chromium not found at ${chromium}: install Debian's package (apt-get install -y chromium).`);
}

const launchOptions = {
  executablePath: chromium,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: '../.cache/e2e-results',
  use: { baseURL: BASE_URL, trace: 'retain-on-failure', launchOptions },
  projects: [
    {
      name: 'desktop',
      // Tests of the phone's own controls (the Menu) are tagged @phone and run on the phone only, never skipped.
      grepInvert: /@phone/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, launchOptions },
    },
  ],
  webServer: {
    command: 'node e2e/serve.ts',
    cwd: '..',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      // Links the server makes (a creator app's consent page, mail links) point where the browser goes.
      PUBLIC_URL: BASE_URL,
      LOG_LEVEL: 'warn',
      DATA_DIR: '.cache/e2e-data',
      ADMIN_NICKNAME: ADMIN.nickname,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_EMAIL: 'admin@starlight.e2e',
      RATE_LIMIT_AUTH: '10000',
      // The admin signs in with a password alone (the two-factor rule has its own server tests).
      ADMIN_MFA: 'optional',
      // A confirmed withdrawal address is usable at once (its own waiting time has server tests).
      WITHDRAW_ADDRESS_HOLD_HOURS: '0',
    },
  },
});
