/**
 * `make cluster`'s replicas get every variable the server's configuration reads (the list is read from
 * apps/server/src/config.ts's text, not from the launcher), and a replica that would serve the checkout
 * sandbox without `CHECKOUT_SANDBOX=on` set for it is refused (DESIGN §7).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseImplicitSandbox, replicaEnvironment, WIRED_VARIABLES } from './replica-env.ts';

const CONFIG = readFileSync(path.join(import.meta.dirname, '../apps/server/src/config.ts'), 'utf8');
/** The keys of config.ts's `variables` object: two-space-indented `NAME:` lines. */
const VARIABLES = [...CONFIG.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] as string);

const wiring = {
  HOST: '127.0.0.1',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:1/starlight',
  DATABASE_LISTEN_URL: 'postgres://postgres@127.0.0.1:2/starlight',
  DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:3/starlight',
  REDIS_URL: 'redis://127.0.0.1:4',
  DATA_DIR: '/cluster/data',
  TRUST_PROXY: '127.0.0.2',
};
const defaults = {
  JWT_SECRET: 'k'.repeat(48),
  ADMIN_NICKNAME: 'admin',
  ADMIN_PASSWORD: 'Cluster-Passw0rd!',
  PUBLIC_URL: 'http://localhost:8080',
};

/** A value config.ts accepts for `name`. */
function sample(name: string): string {
  if (/_URL$/.test(name)) return name === 'SMTP_URL' ? 'smtp://relay:587' : `https://${name.toLowerCase()}.test/`;
  const fixed: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_POOLER: 'none',
    LOG_LEVEL: 'error',
    JWT_SECRET: 's'.repeat(40),
    CHECKOUT_SANDBOX: 'off',
    RATE_LIMIT_ACCOUNT_FAILURES: '7',
    PORT: '9999',
    SEED_DEMO: 'off',
    ADMIN_MFA: 'optional',
  };
  if (fixed[name]) return fixed[name];
  if (/^(RATE_LIMIT_|DRAIN_|DB_POOL|CHIP_)/.test(name) || /_(HOURS|PER_HOUR)$/.test(name)) return '11';
  if (/_MS$/.test(name)) return '11000';
  return `value-of-${name}`;
}

describe('the cluster launcher', () => {
  it('reads the variables of config.ts', () => {
    expect(VARIABLES.length).toBeGreaterThan(30);
    for (const name of ['NODE_ENV', 'STRIPE_SECRET_KEY', 'BTCPAY_API_KEY', 'ADMIN_EMAIL', 'RATE_LIMIT_MAILS'])
      expect(VARIABLES).toContain(name);
  });

  it("passes every configuration variable from the caller's environment to a replica", () => {
    const caller = Object.fromEntries(VARIABLES.map((name) => [name, sample(name)]));
    const env = replicaEnvironment(caller, wiring, defaults, 3101);
    const wired = new Set<string>(WIRED_VARIABLES);
    for (const name of VARIABLES) {
      if (wired.has(name)) continue;
      expect(env[name], name).toBe(caller[name]);
    }
    // The cluster's own wiring wins: the replica stays in the cluster.
    expect(env).toMatchObject({ ...wiring, PORT: '3101', DATABASE_POOLER: 'transaction' });
    for (const name of wired) expect(VARIABLES, `${name} is a configuration variable`).toContain(name);
  });

  it("keeps the cluster's defaults only where the caller sets nothing", () => {
    const env = replicaEnvironment({ NODE_ENV: 'production', PATH: '/bin' }, wiring, defaults, 3102);
    expect(env).toMatchObject({ ...defaults, NODE_ENV: 'production', PATH: '/bin' });
    expect(env.CHECKOUT_SANDBOX).toBeUndefined();
  });

  it('refuses a replica that would run the checkout sandbox unless CHECKOUT_SANDBOX=on is set for it', () => {
    const refused = /checkout sandbox on/;
    expect(() => replicaEnvironment({}, wiring, defaults, 3101)).toThrow(refused);
    expect(() => refuseImplicitSandbox({ NODE_ENV: 'development' })).toThrow(refused);
    // Stripe set, BTCPay not: the sandbox would serve crypto payments.
    expect(() => refuseImplicitSandbox({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' })).toThrow(refused);
    expect(() => refuseImplicitSandbox({ NODE_ENV: 'production' })).not.toThrow();
    expect(() => refuseImplicitSandbox({ CHECKOUT_SANDBOX: 'off' })).not.toThrow();
    expect(() => refuseImplicitSandbox({ CHECKOUT_SANDBOX: 'on' })).not.toThrow();
    expect(replicaEnvironment({ CHECKOUT_SANDBOX: 'on' }, wiring, defaults, 3101).CHECKOUT_SANDBOX).toBe('on');
  });
});
