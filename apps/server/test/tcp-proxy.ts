/**
 * A TCP proxy in front of the test PostgreSQL, for the tests of a lost database: it
 * forwards, or drops every connection and refuses new ones (a database that is down), or holds new
 * connections without an answer (a database that does not answer), and forwards again when restored.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'silent';

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  port: number;
  /** Drops every open connection and handles new ones as `mode` says. */
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1 to `target` (host and port). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    if (mode === 'silent') return;
    client.pause();
    const upstream = connect(target.port, target.host, () => {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    track(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    set(next) {
      mode = next;
      for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
