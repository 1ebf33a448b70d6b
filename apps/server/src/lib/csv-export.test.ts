/**
 * The CSV export stream (DESIGN §11.6): spreadsheet safety, keyset pages read one at a time as the client
 * takes them, across many pages, and no page read after the client goes away.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { type KeysetPages, keysetRows, safeCell, sendCsv } from './csv-export.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('safeCell', () => {
  it('prefixes what a spreadsheet would run, to the letter of DESIGN §11.6', () => {
    for (const v of ['=1+1', '+1', '-5.00', '@SUM(A1)', '\tx', '\rx']) expect(safeCell(v)).toBe(`'${v}`);
    for (const v of ['12.50', 'a=b', ' =1', 'Café 🚀', '']) expect(safeCell(v)).toBe(v);
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
    expect(safeCell(7)).toBe('7');
  });
});

/** Rows numbered 0..total-1 in pages of `size`, keyed by the previous page's last row; counts the pages read. */
function numbered(total: number, size: number): { pages: KeysetPages<number>; read: () => number } {
  let read = 0;
  return {
    pages: async (after) => {
      read++;
      const from = after === null ? 0 : after + 1;
      return Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => from + i);
    },
    read: () => read,
  };
}

describe('keysetRows', () => {
  it('walks every page from the cursor of the one before, until an empty page', async () => {
    const { pages, read } = numbered(2_345, 100);
    const rows: number[] = [];
    for await (const r of keysetRows(pages, new AbortController().signal)) rows.push(r);
    expect(rows).toEqual(Array.from({ length: 2_345 }, (_, i) => i));
    expect(read()).toBe(25);
  });
});

describe('sendCsv', () => {
  const app = Fastify();
  let source = numbered(0, 1);
  app.get('/rows.csv', (req, reply) => {
    sendCsv(req, reply, 'rows-2026-01-01.csv', [{ header: 'n', cell: (n: number) => n }], source.pages);
  });
  afterAll(() => app.close());

  it('streams every page as CSV with a header row', async () => {
    source = numbered(1_234, 100);
    const res = await app.inject({ method: 'GET', url: '/rows.csv' });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rows-2026-01-01.csv"');
    const [header, ...rows] = parse(res.body) as string[][];
    expect(header).toEqual(['n']);
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 1_234 }, (_, i) => i));
  });

  it('reads no further page once the client goes away', async () => {
    // An endless list, pages of big rows: the client reads a little and hangs up.
    source = numbered(Number.MAX_SAFE_INTEGER, 1_000);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = request({ port, path: '/rows.csv' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? resolve() : reject(err)));
      req.end();
    });
    await sleep(300);
    const afterClose = source.read();
    await sleep(500);
    expect(source.read()).toBe(afterClose);
    // Backpressure held it to a few pages ahead of the client, not the endless list.
    expect(afterClose).toBeLessThan(200);
  });
});
