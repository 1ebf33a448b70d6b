/** A WebSocket test client of `/api/ws`: records every message and the close code, and can wait for one. */
import type { WsServerMessage } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';

/** A WebSocket client that records every message and can wait for one. */
export class LiveSocket {
  readonly messages: WsServerMessage[] = [];
  private waiters: Array<() => void> = [];
  private readonly ws: WebSocket;
  /** The close code once the server (or the client) closed the socket. */
  closeCode: number | null = null;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener('message', (ev) => {
      this.messages.push(JSON.parse(String(ev.data)) as WsServerMessage);
      for (const w of this.waiters.splice(0)) w();
    });
    ws.addEventListener('close', (ev) => {
      this.closeCode = ev.code;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Opens a socket to the `/api/ws` of a listening `app`, with upgrade `headers` if given. */
  static open(app: FastifyInstance, headers?: Record<string, string>): Promise<LiveSocket> {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return LiveSocket.openUrl(`ws://127.0.0.1:${address.port}/api/ws`, headers);
  }

  /** Opens a socket to `url` (ws://...), with upgrade `headers` if given. */
  static async openUrl(url: string, headers?: Record<string, string>): Promise<LiveSocket> {
    const ws = headers ? new WebSocket(url, { headers } as unknown as string[]) : new WebSocket(url);
    const socket = new LiveSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve());
      ws.addEventListener('error', () => reject(new Error('websocket failed')));
    });
    return socket;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits until `test` holds for the messages received so far (checked on every new message or close). */
  async until<T>(test: (messages: WsServerMessage[]) => T | undefined | false, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = test(this.messages);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.messages.map((m) => m.type))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The message of `type` last received, if any. */
  last<K extends WsServerMessage['type']>(type: K): Extract<WsServerMessage, { type: K }> | undefined {
    return this.messages.filter((m): m is Extract<WsServerMessage, { type: K }> => m.type === type).at(-1);
  }

  close(): void {
    this.ws.close();
  }
}
