/** The server proper (loaded by server.js): listen, print the first admin's password once, drain and stop on SIGTERM or SIGINT. */
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DEMO_PASSWORD } from './seed-demo.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const { app, database, seeded, demo } = await buildApp(config);
await app.listen({ port: config.PORT, host: config.HOST });

const where = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
const banner = [
  '',
  `  Starlight is running at ${where}  (database: ${database.kind === 'pglite' ? `embedded, in ${config.DATA_DIR}` : 'PostgreSQL'})`,
  `  Admin account: ${seeded.adminNickname}`,
  seeded.generatedPassword
    ? `  Admin password (shown once, keep it): ${seeded.generatedPassword}`
    : '  Admin password: as configured (ADMIN_PASSWORD), or the one printed on the first start',
  ...(config.ADMIN_MFA === 'required'
    ? [
        '  Admin two-factor: required (ADMIN_MFA). Sign in as the admin, set up an authenticator app or a passkey',
        '  in Settings → Security, then sign in again with it: the admin console opens only after that.',
        '  For a local trial, ADMIN_MFA=optional opens it with the password alone.',
      ]
    : ['  Admin two-factor: optional (ADMIN_MFA=optional): the admin console opens with a password alone']),
  ...(demo
    ? [
        `  Demo community: sign in as ${demo.nicknames.join(', ')} (${demo.nicknames.at(-1)} is a creator)`,
        demo.password
          ? `  Demo password: ${demo.password}${database.kind === 'pglite' ? '' : ' (shown once, keep it)'}`
          : `  Demo password: ${database.kind === 'pglite' ? DEMO_PASSWORD : 'the one printed when it was seeded'}, unless changed`,
        ...(demo.password ? ['  (SEED_DEMO=off on a new database starts without it)'] : []),
      ]
    : []),
  `  API docs: ${where}/api/docs`,
  '',
];
console.log(banner.join('\n'));

/** How long a shutdown waits for requests in flight before it gives up (milliseconds). */
const DRAIN_MS = 10_000;

// SIGTERM drains (DESIGN §9): readiness turns 503 at once while the server goes on serving
// for DRAIN_DELAY_MS (a load balancer's health check takes it out meanwhile); then the listener closes
// (new connections are refused), requests in flight finish, sockets and the database close, exit 0.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal, drainDelayMs: config.DRAIN_DELAY_MS }, 'shutting down');
    app.health.drain();
    setTimeout(() => {
      setTimeout(() => {
        app.log.error('requests still in flight after the drain time: exiting');
        process.exit(1);
      }, DRAIN_MS).unref();
      app
        .close()
        .then(() => process.exit(0))
        .catch(() => process.exit(1));
    }, config.DRAIN_DELAY_MS);
  });
}
