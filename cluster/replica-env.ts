/**
 * The environment each cluster replica runs with (docs/operations.md, "Running in production"): every
 * variable the server's configuration reads (apps/server/src/config.ts) goes through from the caller's
 * environment, but those that wire the replica into the cluster, which the cluster sets itself. A
 * replica that would serve a payment provider from the checkout sandbox (which mints Credits for
 * anyone) is refused unless the caller set `CHECKOUT_SANDBOX=on` for it (DESIGN §7).
 */
import { CONFIG_VARIABLES, loadConfig } from '../apps/server/src/config.ts';

/** What the cluster sets of a replica's configuration itself: its place in the cluster. */
export interface ClusterWiring {
  /** PgBouncer (transaction pooling). */
  DATABASE_URL: string;
  /** The primary, directly: the event bus's LISTEN. */
  DATABASE_LISTEN_URL: string;
  /** The standby. */
  DATABASE_READ_URL: string;
  REDIS_URL: string;
  /** Shared by the replicas (the mail outbox). */
  DATA_DIR: string;
  /** The one address whose X-Forwarded-For is believed: HAProxy's source address. */
  TRUST_PROXY: string;
  HOST: string;
}

/** Variables the cluster always sets (a caller's value would take the replica out of the cluster). */
export const WIRED_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_POOLER',
  'DATABASE_LISTEN_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'DATA_DIR',
  'TRUST_PROXY',
] as const;

/** What the cluster sets when the caller does not: a caller's value wins. */
export interface ClusterDefaults {
  JWT_SECRET: string;
  ADMIN_NICKNAME: string;
  ADMIN_PASSWORD: string;
  PUBLIC_URL: string;
}

/**
 * Throws an Error when a replica with the caller's `env` would run the checkout sandbox (a provider
 * without settings served by the built-in sandbox, `NODE_ENV` not `production`) and the caller did not
 * set `CHECKOUT_SANDBOX=on` explicitly (DESIGN §7).
 */
export function refuseImplicitSandbox(env: NodeJS.ProcessEnv): void {
  const config = loadConfig({ ...pickConfig(env), PORT: '0' });
  if (config.CHECKOUT_SANDBOX === 'on' && env.CHECKOUT_SANDBOX?.trim() !== 'on') {
    throw new Error(
      'The replicas would start with the checkout sandbox on, which sells Credits for free. Set ' +
        "NODE_ENV=production and the providers' settings (STRIPE_*, BTCPAY_*), or CHECKOUT_SANDBOX=off; " +
        'or CHECKOUT_SANDBOX=on to run the sandbox on purpose (docs/payments.md).',
    );
  }
}

/**
 * A replica's whole environment: every configuration variable of `env` (the caller's), `defaults` for
 * those it leaves unset, `wiring` and `port` over anything. Throws as `refuseImplicitSandbox`, or with
 * the configuration's message when a variable is bad.
 */
export function replicaEnvironment(
  env: NodeJS.ProcessEnv,
  wiring: ClusterWiring,
  defaults: ClusterDefaults,
  port: number,
): NodeJS.ProcessEnv {
  refuseImplicitSandbox(env);
  const out: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    // The replicas run behind a balancer whose check must take a draining one out first.
    DRAIN_DELAY_MS: '4000',
    LOG_LEVEL: 'warn',
    ...defaults,
    ...pickConfig(env),
    ...wiring,
    DATABASE_POOLER: 'transaction',
    PORT: String(port),
  };
  loadConfig(out);
  return out;
}

/** The configuration variables `env` sets (non-empty), and only those. */
function pickConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of CONFIG_VARIABLES) {
    const v = env[name];
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}
