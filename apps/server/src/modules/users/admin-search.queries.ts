/**
 * SQL of the admin user list's searches (DESIGN §8): the nickname and e-mail filters in the forms their
 * indexes serve, and the nickname search's ranking (the exact nickname first, then the nicknames that
 * start with the term, then the rest of the matches).
 * Reads other modules' tables: `users` (the accounts module's: the rows a search finds).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** `text` as a LIKE pattern matching it anywhere: `%`, `_` and `\` escaped, lower-cased. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `email` contains `text` (kept lower case, so any case matches). The trigram index is asked only for the
 * part up to and with the `@` when that part has 3 characters or more: the part after it is a domain many
 * members share (each of its trigrams lists most of the table, and GIN reads every list it is given,
 * so `r4567@scale` cost far more than `r4567@`); the whole text is then checked on
 * the few rows found.
 */
export function emailFilter(text: string): SQL {
  const lower = text.toLowerCase();
  const at = lower.indexOf('@');
  if (at < 3 || at === lower.length - 1) return sql`u.email LIKE ${containsPattern(lower)}`;
  return sql`u.email LIKE ${containsPattern(lower.slice(0, at + 1))} AND strpos(u.email, ${lower}) > 0`;
}

/** A trigram in more than this share of nicknames is left out of the index search (see `nicknameFilter`). */
const FREQUENT_TRIGRAM_SHARE = 0.05;
/** The fewest sampled nicknames from which trigram shares are judged (fewer: the whole term is searched). */
const MIN_NICKNAME_SAMPLE = 50;

/**
 * `lower(nickname)` contains `text`, in any case. The trigram index (`users_nickname_trgm`)
 * is asked for the longest part of the term whose trigrams are each in at most `FREQUENT_TRIGRAM_SHARE` of
 * `sample` (nicknames the planner sampled, see `nicknameSample`), and the whole term is then checked on the
 * rows found (strpos). GIN checks every candidate of a term's rarest trigram against each of its other
 * trigrams, reading a page of each one's list per candidate: a trigram most nicknames share (`mem`, `ber`
 * of `member…`) costs its whole list (`member123` reads far more index pages than its part `er123`, and
 * `r123`, leaving out `er1` which many nicknames hold, fewer still). The whole term goes to the index when
 * it is not all letters and digits, when every trigram is frequent or none is, and without a sample large
 * enough to judge.
 */
export function nicknameFilter(text: string, sample: readonly string[]): SQL {
  const whole = sql`lower(u.nickname) LIKE ${containsPattern(text)}`;
  const lower = text.toLowerCase();
  if (!/^[a-z0-9]{4,}$/.test(lower) || sample.length < MIN_NICKNAME_SAMPLE) return whole;
  const rare: boolean[] = [];
  for (let i = 0; i + 3 <= lower.length; i++) {
    const trigram = lower.slice(i, i + 3);
    const shared = sample.filter((nick) => nick.includes(trigram)).length;
    rare.push(shared <= FREQUENT_TRIGRAM_SHARE * sample.length);
  }
  // The longest run of rare trigrams: the part of the term from its first to its last trigram's end.
  let best = { from: 0, count: 0 };
  for (let i = 0, run = 0; i < rare.length; i++) {
    run = rare[i] ? run + 1 : 0;
    if (run > best.count) best = { from: i - run + 1, count: run };
  }
  if (best.count === 0 || best.count === rare.length) return whole;
  const part = lower.slice(best.from, best.from + best.count + 2);
  return sql`lower(u.nickname) LIKE ${containsPattern(part)} AND strpos(lower(u.nickname), ${lower}) > 0`;
}

/** Per database handle: the sampled nicknames and when they were read (`nicknameSample`). */
const nicknameSamples = new WeakMap<object, { at: number; sample: Promise<string[]> }>();
const NICKNAME_SAMPLE_TTL_MS = 10 * 60_000;

/**
 * The nicknames (lower case) ANALYZE sampled for `users_nickname_trgm`: its histogram, about 100 evenly
 * spread through the sorted nicknames; empty before any ANALYZE (PGlite). Read once per 10 minutes per
 * database handle. Only `nicknameFilter`'s choice of index search depends on it, never the rows found.
 */
export async function nicknameSample(db: DbOrTx): Promise<readonly string[]> {
  const kept = nicknameSamples.get(db);
  if (kept && Date.now() - kept.at < NICKNAME_SAMPLE_TTL_MS) return kept.sample;
  const sample = db
    .execute<{ sample: string[] | null }>(
      sql`SELECT histogram_bounds::text::text[] AS sample FROM pg_stats
          WHERE schemaname = current_schema() AND tablename = 'users_nickname_trgm' LIMIT 1`,
    )
    .then((res) => res.rows[0]?.sample ?? [])
    .catch(() => []);
  nicknameSamples.set(db, { at: Date.now(), sample });
  return sample;
}

/** `text` as a LIKE pattern matching what starts with it: `%`, `_` and `\` escaped, lower-cased. */
function prefixPattern(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `lower(nickname)` starts with `text`, in any case, in the form `users_nickname_prefix` (migration 0048:
 * `lower(nickname) COLLATE "C"`) serves: a LIKE with a fixed start on a C-collated btree becomes a range of
 * the index, in byte order whatever the database's collation.
 */
export function nicknamePrefixFilter(text: string): SQL {
  return sql`lower(u.nickname) COLLATE "C" LIKE ${prefixPattern(text)}`;
}

/**
 * The ids of the first `upTo` nicknames that start with `text` (and meet `others`, the list's other
 * conditions), in the order of `users_nickname_prefix`: a range of that index, read in its order and
 * stopped at `upTo`, so the cost is the page's reach, not the number of matches. The exact nickname
 * (case-insensitive) is the range's first entry, so it leads the search; then the longer ones, closest first.
 */
export async function prefixMatchIds(db: DbOrTx, text: string, others: SQL, upTo: number): Promise<string[]> {
  const res = await db.execute<{ id: string }>(sql`
    SELECT u.id FROM users u WHERE ${nicknamePrefixFilter(text)} AND ${others}
    ORDER BY lower(u.nickname) COLLATE "C" LIMIT ${upTo}`);
  return res.rows.map((r) => r.id);
}
