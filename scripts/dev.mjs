// `make dev`: the API server (embedded database unless DATABASE_URL) and Vite's dev server with reload.
import { spawn } from 'node:child_process';

const children = [
  spawn('node', ['--watch', 'apps/server/src/server.js'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT ?? '3000' },
  }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
