/**
 * The scale seed's database as the scale benches find it: its URL's parts, whether `make scale-seed`
 * filled it (member1, the members, the ledger's size, the admin), and a session for its admin signed
 * with the bench server's secret. Used by bench/scale.ts and bench/export.ts.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { type PgTarget, psql } from './postgres.ts';
import { BENCH_JWT_SECRET } from './server.ts';

/** The member whose history the seed makes the heaviest. */
export const MEMBER = 'member1';

/** Stops a scale bench with a message for people (exit 2). */
export class StopError extends Error {}

/** The PostgreSQL target and database name of a postgres:// URL. */
export function parseDatabaseUrl(name: string, url: string): { pg: PgTarget; database: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StopError(`${name} is not a URL: ${url}`);
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new StopError(`${name} names no plain database: ${url}`);
  return {
    pg: {
      host: decodeURIComponent(u.hostname) || '127.0.0.1',
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username) || 'postgres',
    },
    database,
  };
}

export interface Seeded {
  members: number;
  ledgerRows: number;
  admin: { id: string; nickname: string; tokenVersion: number };
}

/**
 * Whether `database` holds a community from `make scale-seed`: member1 with its `@scale.example` e-mail,
 * and how many members (`member<n>`; wallet-only ones have no e-mail) and ledger rows (planner estimates: exact counts of millions of rows take
 * seconds). Null when it does not (or the database does not exist).
 */
export async function seededCommunity(pg: PgTarget, database: string): Promise<Seeded | null> {
  const exists = await psql(pg, 'postgres', `SELECT 1 FROM pg_database WHERE datname = '${database}'`);
  if (exists !== '1') return null;
  const hasUsers = await psql(pg, database, `SELECT to_regclass('public.users') IS NOT NULL`);
  if (hasUsers !== 't') return null;
  const m1 = await psql(pg, database, `SELECT email FROM users WHERE nickname = '${MEMBER}'`);
  if (m1 !== `${MEMBER}@scale.example`) return null;
  const out = await psql(
    pg,
    database,
    `SELECT (SELECT count(*) FROM users WHERE nickname LIKE 'member%')
       || '|' || (SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'bank_transactions'::regclass)
       || '|' || (SELECT id || ',' || nickname || ',' || token_version FROM users
                   WHERE role = 'admin' AND is_active AND NOT is_system ORDER BY created_at LIMIT 1)`,
  );
  const [members = '0', ledgerRows = '0', admin = ''] = out.split('|');
  const [id = '', nickname = '', tokenVersion = '0'] = admin.split(',');
  if (!id) return null;
  return {
    members: Number(members),
    ledgerRows: Number(ledgerRows),
    admin: { id, nickname, tokenVersion: Number(tokenVersion) },
  };
}

/**
 * A session token for the seeded admin, signed with the bench server's secret (its password is the seed's),
 * with a session row of its own as a sign-in starts (`user_sessions`, DESIGN §11.1).
 */
export async function adminSession(pg: PgTarget, database: string, admin: Seeded['admin']): Promise<string> {
  const sid = randomBytes(12).toString('hex');
  await psql(
    pg,
    database,
    `INSERT INTO user_sessions (id, user_id, device, address, expires_at)
     VALUES ('${sid}', '${admin.id}', 'bench-scale', '127.0.0.1', now() + interval '6 hours')`,
  );
  return new SignJWT({ role: 'admin', tv: admin.tokenVersion, sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(admin.id)
    .setJti(`bench-scale-${Date.now()}`)
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(new TextEncoder().encode(BENCH_JWT_SECRET));
}
