/** Configuration: the environment parsed by one Zod schema (DESIGN §2). A bad value stops the start. */
import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The environment's variables, as read; `configSchema` adds the defaults that depend on others. */
const variables = z.object({
  /** `production` turns development conveniences off by default (the checkout sandbox). */
  NODE_ENV: optionalText,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalText,
  /**
   * A PostgreSQL standby for the reads that tolerate a few seconds of lag: leaderboards,
   * public stats, candles, trades, supply history, admin lists and stats. Unset, they go to DATABASE_URL.
   */
  DATABASE_READ_URL: optionalText,
  /**
   * Where the event bus LISTENs: a direct connection to the primary when DATABASE_URL is a pooler in
   * transaction mode, which cannot hold a LISTEN. Unset, DATABASE_URL.
   */
  DATABASE_LISTEN_URL: optionalText,
  /**
   * `transaction` when DATABASE_URL is PgBouncer in transaction pooling mode: statements then go unnamed
   * (a transaction may run on any server connection). `none` (the default): a direct connection.
   */
  DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: optionalText.pipe(z.string().min(32).optional()),
  ADMIN_NICKNAME: optionalText,
  ADMIN_EMAIL: optionalText,
  ADMIN_PASSWORD: optionalText,
  /**
   * Whether admin routes need a session that passed a second factor (DESIGN §11.1): `required` (the
   * default) answers 403 to an admin signed in with a password alone; `optional` is for local trials and
   * for tests and tools that are not about it.
   */
  ADMIN_MFA: z.enum(['required', 'optional']).default('required'),
  PUBLIC_URL: optionalText.pipe(z.url().optional()),
  REDIS_URL: optionalText,
  /**
   * Outgoing mail (DESIGN §8): an SMTP URL such as `smtp://user:pass@relay:587` (nodemailer's form).
   * Unset, each mail is written as an `.eml` file under `DATA_DIR/outbox/` and its link is logged.
   */
  SMTP_URL: optionalText,
  /** The From address of Starlight's mails. */
  MAIL_FROM: z.string().default('Starlight <no-reply@starlight.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Register and sign-in requests per IP per 15 minutes. */
  RATE_LIMIT_AUTH: z.coerce.number().int().min(1).default(50),
  /** Requests per API key per minute, on every route (DESIGN §8: rate limits per key as per IP). */
  RATE_LIMIT_API_KEY: z.coerce.number().int().min(1).default(600),
  /** Failed sign-ins per account and address per 15 minutes (5x that per address, whatever the account). */
  RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().min(1).default(10),
  /**
   * Failed sign-ins per account per hour from addresses that have not signed in to it in the last 30 days,
   * and password re-checks; past it, such sign-ins get one 429 whatever the password (a right one mails a
   * sign-in link) and re-checks are refused (ASVS 6.3.1: at most 100 an hour; windows are fixed, so two
   * can meet within an hour: hence at most 49).
   */
  RATE_LIMIT_ACCOUNT_FAILURES: z.coerce.number().int().min(1).max(49).default(20),
  /**
   * Mails of one kind (verification, reset, sign-in link, receipt) to one address per hour; more are
   * silently not sent. Notification mails have their own budget (`NOTIFICATION_MAILS_PER_HOUR`).
   */
  RATE_LIMIT_MAILS: z.coerce.number().int().min(1).default(3),
  /**
   * How often the notification mail job looks for notifications due to go by e-mail (milliseconds,
   * DESIGN §11.3): the longest a chosen notification waits for its mail, and the span one digest gathers.
   */
  NOTIFICATION_MAIL_EVERY_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  /**
   * Notification mails (one notification, a digest or a broadcast) to one member's address per hour
   * (DESIGN §11.3), in a budget apart from `RATE_LIMIT_MAILS`'s kinds; past it a mail is not sent and the
   * drop is logged (the notifications stay in the app).
   */
  NOTIFICATION_MAILS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(12),
  /**
   * Hours a confirmed withdrawal address waits before withdrawals may go to it, and turning the
   * "allowed addresses only" switch off waits before it takes effect (DESIGN §11.2).
   */
  WITHDRAW_ADDRESS_HOLD_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  /** Hours withdrawals pause after a password reset, an e-mail change or two-factor turned off (DESIGN §11.2). */
  SECURITY_HOLD_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  /**
   * Proxies whose X-Forwarded-For is believed: comma-separated addresses or CIDRs (or the names
   * loopback, linklocal, uniquelocal). Unset (the default), no proxy header is believed: the client IP
   * of rate limits and access logs is the connection's, so no client can choose its own IP and escape
   * the per-IP limit. Behind a load balancer, set it to the balancer's address.
   */
  TRUST_PROXY: optionalText,
  /**
   * After SIGTERM, how long `GET /api/ready` answers 503 while the server still serves, before it stops
   * taking connections (milliseconds): time for a load balancer's health check to take it out first.
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Database connections in the pool (PostgreSQL only). */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  WEB_DIST: z.string().optional(),
  /** Alpha synth chips minted to the sale when their currency is first seeded (DESIGN §7). */
  /**
   * The demo community of a first start (members, a pair with orders and trades, packages, a recipe, a
   * collection): `on` seeds it once on any database, `off` never; unset, only on a new embedded database.
   */
  SEED_DEMO: z.enum(['on', 'off']).optional(),
  CHIP_SUPPLY: z.coerce.number().int().min(0).max(1_000_000_000).default(10000),
  /**
   * Card payments (DESIGN §7): Stripe Checkout when both are set; else the built-in sandbox serves
   * provider 2 when CHECKOUT_SANDBOX is on, and nothing does when it is off. `STRIPE_API_URL` points
   * the SDK at a Stripe-compatible API (tests).
   */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: optionalText.pipe(z.url().optional()),
  /** Crypto payments (DESIGN §7): BTCPay Server's Greenfield API when all four are set; else as for cards. */
  BTCPAY_URL: optionalText.pipe(z.url().optional()),
  BTCPAY_API_KEY: optionalText,
  BTCPAY_STORE_ID: optionalText,
  BTCPAY_WEBHOOK_SECRET: optionalText,
  /**
   * Whether the built-in sandbox serves a provider without settings (DESIGN §7): `on` or `off`; unset,
   * `on` outside production and `off` when `NODE_ENV=production`, where it would mint Credits for anyone.
   */
  CHECKOUT_SANDBOX: z.enum(['on', 'off']).optional(),
});

/** The name of every environment variable the configuration reads (the cluster passes each to its replicas). */
export const CONFIG_VARIABLES = Object.keys(variables.shape) as ReadonlyArray<keyof typeof variables.shape>;

export const configSchema = variables.transform((c) => ({
  ...c,
  CHECKOUT_SANDBOX: c.CHECKOUT_SANDBOX ?? (c.NODE_ENV === 'production' ? 'off' : 'on'),
}));
export type Config = z.infer<typeof configSchema>;

/**
 * Parses `env` into a Config. Throws an Error naming every bad variable (DESIGN §2).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Bad configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}
