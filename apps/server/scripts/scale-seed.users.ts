/**
 * Members of `make scale-seed`: member1 … memberN, e-mail memberN@scale.example, one
 * shared password hash; about 5% wallet-only, 10% private, 2% inactive, 40% with a verified e-mail;
 * joined over the two years (older members first: member1 is the first to join).
 */
import { type Conn, S, type SeedContext, ts } from './scale-seed.sql.ts';

/** The members who run the 19 creator collections (role creator). */
export function creatorNumbers(n: number): number[] {
  return Array.from({ length: 19 }, (_, i) => Math.max(2, Math.floor((n * (i + 1)) / 20)) + 1);
}

/** A number in [0, 1) from member k and a multiplier: independent-looking flags without a random draw. */
const h = (mult: number) => `(((k * ${mult}::bigint) % 4294967291) / 4294967291.0)`;

/** Inserts the members (`passwordHash` is SCALE_PASSWORD hashed once with the product's argon2 settings). */
export async function insertMembers(conn: Conn, ctx: SeedContext, passwordHash: string): Promise<void> {
  const creators = creatorNumbers(ctx.n);
  await conn.query(
    `INSERT INTO users (id, nickname, email, password_hash, role, primary_wallet, is_active, is_wallet_only,
                        is_email_verified, is_anonymous, is_system, referrer_id, fame, token_version, created_at, updated_at)
     SELECT ${S}.uid(k), 'member' || k,
            CASE WHEN k % 20 = 0 THEN NULL ELSE 'member' || k || '@scale.example' END,
            CASE WHEN k % 20 = 0 THEN NULL ELSE $1 END,
            CASE WHEN k = ANY($2::bigint[]) THEN 'creator' ELSE 'user' END,
            CASE WHEN k % 20 = 0 OR ${h(2654435761)} < 0.1
                 THEN '0x' || md5('wallet' || k) || substr(md5('w' || k), 1, 8) END,
            k = 1 OR ${h(2246822519)} >= 0.02,
            k % 20 = 0,
            k % 20 <> 0 AND (k = 1 OR ${h(3266489917)} < 0.4 / 0.95),
            k <> 1 AND ${h(668265263)} < 0.1,
            false,
            CASE WHEN k > 1 AND ${h(374761393)} < 0.2 THEN ${S}.uid(1 + floor(${h(1103515245)} * (k - 1))::bigint) END,
            floor(power(${h(1664525)}, 6) * 5000)::int,
            0,
            ${S}.created(k), least(${S}.created(k) + interval '1 minute' * floor(${h(22695477)} * 600), ${ts(ctx.now)})
       FROM generate_series(1, ${ctx.n}::bigint) k`,
    [passwordHash, creators],
  );
}
