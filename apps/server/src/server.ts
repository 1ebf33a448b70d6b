/** Starts Starlight: listen, print the first admin's password once, shut down gracefully. */
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const { app, database, seeded } = await buildApp(config);
await app.listen({ port: config.PORT, host: config.HOST });

const where = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
const banner = [
  '',
  `  Starlight is running at ${where}  (database: ${database.kind === 'pglite' ? `embedded, in ${config.DATA_DIR}` : 'PostgreSQL'})`,
  `  Admin account: ${seeded.adminNickname}`,
  seeded.generatedPassword
    ? `  Admin password (shown once, keep it): ${seeded.generatedPassword}`
    : '  Admin password: as configured (ADMIN_PASSWORD), or the one printed on the first start',
  `  API docs: ${where}/api/docs`,
  '',
];
console.log(banner.join('\n'));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  });
}
