/**
 * pgArray: the array literals every batch binds as one parameter come back from PostgreSQL as exactly the
 * values that went in, whatever a string holds (quotes, backslashes, commas, braces, spaces, `NULL` as
 * text, nothing at all), and numbers and booleans as their own types.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { pgArray } from '../src/db/pg-array.ts';
import { testDatabaseUrl } from './test-db.ts';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: 'memory://', poolSize: 1 });
});

afterAll(async () => {
  await database.close();
});

describe('pgArray', () => {
  it('round-trips strings of every kind, and nulls, through text[]', async () => {
    const values = [
      'plain',
      'with "quotes"',
      'back\\slash',
      '\\"both\\"',
      'a,b',
      '{braces}',
      ' spaced ',
      'NULL',
      '',
      'Søren ✨',
      null,
      "it's",
    ];
    const res = await database.db.execute<{ v: string | null }>(
      sql`SELECT v FROM unnest(${pgArray(values)}::text[]) WITH ORDINALITY AS x(v, n) ORDER BY x.n`,
    );
    expect(res.rows.map((r) => r.v)).toEqual(values);
  });

  it('passes numbers and booleans bare, for int[], numeric[] and bool[]', async () => {
    const res = await database.db.execute<{ i: number; d: string; b: boolean }>(
      sql`SELECT i, d::text AS d, b FROM unnest(${pgArray([1, -2, 3])}::int[], ${pgArray([0.5, 12, -3.25])}::numeric[],
                                   ${pgArray([true, false, true])}::bool[]) AS x(i, d, b)`,
    );
    expect(res.rows).toEqual([
      { i: 1, d: '0.5', b: true },
      { i: -2, d: '12', b: false },
      { i: 3, d: '-3.25', b: true },
    ]);
    expect(pgArray([])).toBe('{}');
  });
});
