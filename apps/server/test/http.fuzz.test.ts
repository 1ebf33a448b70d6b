/**
 * Bad input gets a clear error and changes nothing. For every route of the route table, with
 * a body: fast-check bodies built from the route's own request schema (as the OpenAPI document publishes
 * it), mixing valid, edge and hostile values (NUL bytes, integers beyond PostgreSQL's range, year 0000,
 * long and odd strings, wrong types), sent anonymously, as a member and as the admin. No answer may be a
 * 5xx, and a refused request (4xx) may leave no ledger row. It runs on a database of its own, since the
 * admin's valid bodies change global settings (the alert level).
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.ts';
import { type DeclaredRoute, declaredRoutes } from '../src/http/access.ts';
import { call, loginAdmin, type Member, makeApp, registerMember } from './helpers.ts';
import { ADMIN_URL, TEST_DB_NAME, testDatabaseUrl } from './test-db.ts';

const FUZZ_DB = `${TEST_DB_NAME}_fuzz`;
/** Bodies per route and caller: with ~30 routes and 3 callers about 2,000 requests, seeded. */
const RUNS = 25;
const SEED = 20261122;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

/** Values no schema should accept, or that sit on the edge of what the database stores. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '\u0000',
      'ok\u0000ok',
      2147483648,
      -2147483649,
      Number.MAX_SAFE_INTEGER,
      -1,
      0,
      1e308,
      '0000-01-01',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '2024-02-30',
      ' 10',
      '1e5',
      '-5',
      '',
      null,
      true,
      [],
      {},
      'x'.repeat(5000),
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
);

/** Dates on the edge of what PostgreSQL stores, mixed into valid-looking dates. */
const edgeDates = fc.constantFrom(
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '2024-02-30',
  '0001-01-01T00:00:00Z',
  '9999-12-31',
);

/** An arbitrary of values for `schema`: mostly valid-looking, sometimes hostile. */
function valuesOf(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: validOf(schema), weight: 3 }, { arbitrary: hostile, weight: 1 });
}

function validOf(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return hostile;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map(validOf));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const keys = Object.keys(props);
      return fc.record(Object.fromEntries(keys.map((k) => [k, valuesOf(props[k])])), {
        requiredKeys: keys.filter((k) => required.has(k)),
      });
    }
    case 'array':
      return fc.array(valuesOf(schema.items), { maxLength: 3 });
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1000, 2 ** 31 - 1),
      });
    case 'number':
      return fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.double({ min: 0, max: 1000, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'date-time' || schema.format === 'date') {
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          edgeDates,
        );
      }
      if (schema.format === 'email') return fc.emailAddress();
      return fc.oneof(
        fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 60)),
        }),
        fc.stringMatching(/^[a-z0-9]{3,24}$/),
        fc.constantFrom('1', '10.5', '0.01', 'admin'),
      );
    default:
      return hostile;
  }
}

let built: BuiltApp;
let admin: Member;
let member: Member;
let routes: Array<DeclaredRoute & { schema: JsonSchema }>;

async function ledgerRows(): Promise<number> {
  const res = await built.database.db.execute('SELECT count(*)::int AS n FROM bank_transactions' as never);
  return Number((res.rows[0] as { n: number }).n);
}

beforeAll(async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${FUZZ_DB} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${FUZZ_DB}`);
  await client.end();
  built = await makeApp({ DATABASE_URL: testDatabaseUrl(FUZZ_DB) });
  admin = await loginAdmin(built.app);
  member = await registerMember(built.app, 'fuzz');
  await built.app.ready();
  const doc = built.app.swagger() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  };
  routes = declaredRoutes
    .filter((r) => r.hasBody && r.method === 'POST')
    .map((r) => ({ ...r, schema: doc.paths[r.url]?.post?.requestBody?.content?.['application/json']?.schema ?? {} }));
});

afterAll(async () => {
  await built?.app.close();
});

describe('every route with a body, fuzzed from its own schema', () => {
  it('answers no 5xx, and a refused request writes no ledger row', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const callers = () => [undefined, member.token, admin.token];
    let sent = 0;
    let refused = 0;
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(valuesOf(route.schema), async (body) => {
          for (const token of callers()) {
            const before = await ledgerRows();
            const res = await call(built.app, token, 'POST', route.url, body);
            sent++;
            expect(res.statusCode, `${route.url} ${JSON.stringify(body).slice(0, 300)}: ${res.body}`).toBeLessThan(500);
            expect(res.json().message, route.url).toEqual(expect.any(String));
            if (res.statusCode >= 400) {
              refused++;
              expect(await ledgerRows(), `${route.url} refused but wrote to the ledger`).toBe(before);
            }
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
    // Most hostile bodies are refused; the rest were valid enough to be served.
    expect(refused).toBeGreaterThan(sent / 2);
  });
});

describe('the JSON body parser', () => {
  it.each([
    [
      'an integer a double cannot hold',
      '{"recipientNickName":"nobody","currencyId":1,"amount":9007199254740993}',
      '"amount" contains an invalid value',
    ],
    [
      'too many digits after the point',
      '{"recipientNickName":"nobody","currencyId":1,"amount":1.0000000000000001}',
      '"amount" contains an invalid value',
    ],
    [
      'a NUL byte in a string',
      '{"recipientNickName":"nob\\u0000dy","currencyId":1,"amount":"1"}',
      '"recipientNickName" contains an invalid value',
    ],
    [
      'a __proto__ key',
      '{"__proto__":{"role":"admin"},"recipientNickName":"nobody","currencyId":1,"amount":"1"}',
      '"__proto__" contains an invalid value',
    ],
    [
      'a decimal string with a space',
      '{"recipientNickName":"nobody","currencyId":1,"amount":" 10"}',
      'Amount must be a number, like 12.50',
    ],
    [
      'a currency id beyond PostgreSQL integer',
      '{"recipientNickName":"nobody","currencyId":2147483648,"amount":"1"}',
      '"currencyId" contains an invalid value',
    ],
    ['not JSON', '{"recipientNickName":', 'Body is not valid JSON'],
  ])('refuses %s with 400', async (_what, payload, message) => {
    const before = await ledgerRows();
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/bank/p2pTransfer',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await ledgerRows()).toBe(before);
  });

  it('still reads large amounts sent as decimal strings exactly', async () => {
    // A fresh member: the fuzzed updateProfile calls above may have renamed the shared one.
    const holder = await registerMember(built.app, 'exact');
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/bank/mint',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      payload: `{"recipientNickName":"${holder.nickname}","currencyId":2,"amount":"9007199254740993","note":"exact"}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await call(built.app, holder.token, 'GET', '/api/user/me');
    expect(me.json().user.balances).toEqual([{ currencyId: 2, amount: '9007199254740993.00' }]);
  });

  it.each([
    ['year 0000', { startDate: '0000-01-01' }],
    ['a day that does not exist', { endDate: '2024-02-30T00:00:00Z' }],
    ['an oversized category', { category: 2147483648 }],
    ['a page beyond PostgreSQL integer', { paging: { limit: 10, page: 2147483648 } }],
  ])('refuses %s in a history filter with 400', async (_what, filter) => {
    const res = await call(built.app, member.token, 'POST', '/api/bank/transactions', {
      paging: { limit: 10, page: 1 },
      ...filter,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/contains an invalid value$/);
  });
});
