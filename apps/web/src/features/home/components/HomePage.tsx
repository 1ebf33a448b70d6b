/**
 * SPEC §1: the public home page, marketing content: about, team, roadmap, token contracts. Plain markup
 * with a CSS module styled like Mantine's components, and no Mantine component: the route is marked
 * `isPlain`, so `/` paints without loading Mantine.
 */
import { Link } from '@tanstack/react-router';
import { CHAT_URL } from '../../../lib/links.ts';
import { useSession } from '../../../lib/session.ts';
import classes from './home.module.css';

/** A published token contract: what it is, its address and where to see it (a block explorer). */
interface TokenContract {
  name: string;
  address: string;
  url: string;
}

/**
 * The token contracts, from the build's `VITE_TOKEN_CONTRACTS` (a JSON array of `{name, address, url}`,
 * README's Configuration); none until they are published.
 */
function tokenContracts(): TokenContract[] {
  try {
    const parsed: unknown = JSON.parse(import.meta.env.VITE_TOKEN_CONTRACTS ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((c): c is TokenContract => typeof c?.name === 'string' && typeof c?.address === 'string')
      : [];
  } catch {
    return [];
  }
}

const CONTRACTS = tokenContracts();

/** Where Starlight stands: what members use today, then what comes (nothing shipped listed as next). */
const ROADMAP = [
  {
    when: 'Live',
    what: 'The bank and transfers by nickname, the forge, the Quantum Hub exchange, the Credits store, synth chips and ship items, leaderboards, creator collections and creator apps, e-mail and wallet sign-in, API keys',
  },
  { when: 'Next', what: 'Rewards for active members' },
  { when: 'Later', what: 'Guilds with their own treasuries; a ship designer' },
];

export function HomePage() {
  const user = useSession((s) => s.user);
  return (
    <div className={classes.page}>
      <div className={classes.hero}>
        <span className={classes.badge}>Beta</span>
        <h1 className={classes.title}>The community economy of the Starlight universe</h1>
        <p className={classes.lead}>
          Hold Stardust, Starnote and Credits, send them to friends by nickname, trade them on the Quantum Hub and forge
          them into something new. Starlight is a beta for entertainment, not a bank.
        </p>
        <div className={classes.actions}>
          {user ? (
            <Link to="/dashboard" className={classes.button}>
              Open your console
            </Link>
          ) : (
            <>
              <Link to="/register" className={classes.button}>
                Join Starlight
              </Link>
              <Link to="/login" className={`${classes.button} ${classes.buttonDefault}`}>
                Sign in
              </Link>
            </>
          )}
        </div>
      </div>
      <div className={classes.grid}>
        <section className={classes.card}>
          <h3 className={classes.cardTitle}>About</h3>
          <p className={classes.text}>
            A bank of virtual currencies for a gaming community, run in the open by its admins with every movement
            written to a ledger.
          </p>
        </section>
        <section className={classes.card}>
          <h3 className={classes.cardTitle}>Team</h3>
          <p className={classes.text}>
            A small team of players and engineers.{' '}
            <a href={CHAT_URL} target="_blank" rel="noopener noreferrer" className={classes.link}>
              Find us in the community chat
            </a>
          </p>
        </section>
        <section className={classes.card}>
          <h3 className={classes.cardTitle}>Token contracts</h3>
          {CONTRACTS.length === 0 ? (
            <p className={classes.text}>
              Not published yet: the on-chain contracts will be listed here.{' '}
              <Link to="/lightpaper" className={classes.link}>
                Read the lightpaper
              </Link>
            </p>
          ) : (
            <ul className={classes.list}>
              {CONTRACTS.map((c) => (
                <li key={c.address}>
                  <a href={c.url} target="_blank" rel="noopener noreferrer" className={classes.link}>
                    {c.name}
                  </a>{' '}
                  <span className={classes.address}>{c.address}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section className={classes.card} aria-labelledby="roadmap-title">
        <h2 className={classes.sectionTitle} id="roadmap-title">
          Roadmap
        </h2>
        <ul className={classes.list}>
          {ROADMAP.map((r) => (
            <li key={r.when}>
              <strong>{r.when}:</strong> {r.what}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
