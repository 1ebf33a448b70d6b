/**
 * HAProxy's runtime API over its stats socket (`stats socket` in deploy/haproxy.cfg): what the cluster's
 * commands and tests ask of the balancer.
 */
import { createConnection } from 'node:net';

/** Sends one command to the socket at `socketPath`; resolves with HAProxy's whole answer. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let out = '';
    socket.setTimeout(3000, () => socket.destroy(new Error('HAProxy did not answer')));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (d) => {
      out += d.toString('utf8');
    });
    socket.on('end', () => resolve(out));
  });
}

/** Each server of backend `replicas`, with its status as HAProxy sees it (`UP`, `DOWN`, `MAINT`…). */
export async function haproxyServers(socketPath: string): Promise<Array<{ name: string; status: string }>> {
  const csv = await haproxyCommand(socketPath, 'show stat');
  const [header, ...rows] = csv.split('\n').filter((l) => l.trim() !== '');
  const cols = (header ?? '').replace(/^# /, '').split(',');
  const at = (name: string) => cols.indexOf(name);
  return rows
    .map((r) => r.split(','))
    .filter((c) => c[at('pxname')] === 'replicas' && !['FRONTEND', 'BACKEND'].includes(c[at('svname')] ?? ''))
    .map((c) => ({ name: c[at('svname')] ?? '', status: c[at('status')] ?? '' }));
}

/** True when HAProxy has server `name` of backend `replicas` in the rotation. */
export async function haproxyServerUp(socketPath: string, name: string): Promise<boolean> {
  const servers = await haproxyServers(socketPath);
  return servers.some((s) => s.name === name && s.status.startsWith('UP'));
}
