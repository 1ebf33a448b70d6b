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

/** `show stat`: one row per frontend, backend and server, each column by its name (`pxname`, `svname`…). */
export async function haproxyStats(socketPath: string): Promise<Array<Record<string, string>>> {
  const csv = await haproxyCommand(socketPath, 'show stat');
  const [header, ...rows] = csv.split('\n').filter((l) => l.trim() !== '');
  const cols = (header ?? '').replace(/^# /, '').split(',');
  return rows.map((r) => {
    const cells = r.split(',');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
  });
}

/**
 * Each server of backend `replicas`, with its status as HAProxy sees it (`UP`, `DOWN`, `MAINT`…) and
 * `downs`, how many times its checks took it from UP to DOWN.
 */
export async function haproxyServers(
  socketPath: string,
): Promise<Array<{ name: string; status: string; downs: number }>> {
  return (await haproxyStats(socketPath))
    .filter((r) => r.pxname === 'replicas' && !['FRONTEND', 'BACKEND'].includes(r.svname ?? ''))
    .map((r) => ({ name: r.svname ?? '', status: r.status ?? '', downs: Number(r.chkdown ?? 0) }));
}

/** The 5xx answers HAProxy's frontend has sent to clients so far, its own `503 <NOSRV>` included. */
export async function haproxyFrontend5xx(socketPath: string): Promise<number> {
  const row = (await haproxyStats(socketPath)).find((r) => r.pxname === 'starlight' && r.svname === 'FRONTEND');
  return Number(row?.hrsp_5xx ?? 0);
}

/** True when HAProxy has server `name` of backend `replicas` in the rotation. */
export async function haproxyServerUp(socketPath: string, name: string): Promise<boolean> {
  const servers = await haproxyServers(socketPath);
  return servers.some((s) => s.name === name && s.status.startsWith('UP'));
}
