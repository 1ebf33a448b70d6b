/**
 * Bulk data for the browser tests at size: members written straight into the e2e server's database by
 * INSERT … SELECT generate_series, idempotent (ON CONFLICT DO NOTHING) so the desktop and phone
 * projects can both run it and the second finds the rows there.
 */
import pg from 'pg';

/** The browser tests' database (e2e/serve.ts made it fresh for this run). */
export function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${process.env.STARLIGHT_E2E_DB ?? 'starlight_e2e'}`;
  return url.toString();
}

/** Members written per statement (`bulkMembers`). */
const CHUNK = 2_000;

/** Runs `fn` with a client of the e2e database, closed after. */
export async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Members `${prefix}1` … `${prefix}${count}` (e-mail `${prefix}N@scale.example`; 2 in 5 verified, 1 in 10
 * private), ids `${idPrefix}` and N in hex (24 characters: `idPrefix` is one character no other test's
 * ids start with). Created a minute apart from an hour ago backwards (`newest: 'first'`: member 1 the
 * newest) or a second apart up to an hour ago (`newest: 'last'`: member 1 the oldest).
 */
export async function bulkMembers({
  prefix,
  idPrefix,
  count,
  newest,
}: {
  prefix: string;
  idPrefix: string;
  count: number;
  newest: 'first' | 'last';
}): Promise<void> {
  const created =
    newest === 'first'
      ? `now() - interval '1 hour' - g * interval '1 minute'`
      : `now() - interval '1 hour' - ($2::int - g) * interval '1 second'`;
  // In statements of CHUNK rows: the kept user stats' row-level trigger updates one row per day and hour
  // for every member, and within one transaction each update walks the versions of that row the earlier
  // ones left, so the cost of one statement grows with the square of its rows.
  await withDatabase(async (client) => {
    for (let from = 1; from <= count; from += CHUNK) {
      await client.query(
        `INSERT INTO users (id, nickname, email, is_email_verified, is_anonymous, created_at)
         SELECT $3 || lpad(to_hex(g), 23, '0'), $1 || g, $1 || g || '@scale.example', g % 5 < 2,
                g % 10 = 0, ${created}
         FROM generate_series($4::int, least($5::int, $2::int)) g
         ON CONFLICT DO NOTHING`,
        [prefix, count, idPrefix, from, from + CHUNK - 1],
      );
    }
  });
}
