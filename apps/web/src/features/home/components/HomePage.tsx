/**
 * SPEC §1: the public home page, marketing content: about, team, roadmap, token contracts. Plain markup
 * with a CSS module for its cards, grid and list, so the first paint of `/` needs no more components
 * than the shell's (issue 6 §6).
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
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

const ROADMAP = [
  { when: 'Done', what: 'The bank, the Quantum Hub exchange, e-mail and wallet sign-in, API keys, the admin console' },
  { when: 'Next', what: 'The forge and leaderboards; Credits packages and the store' },
  { when: 'Then', what: 'Synth chips and ship items; creator collections and third-party apps' },
  { when: 'Later', what: 'Guilds with their own treasuries' },
];

export function HomePage() {
  const user = useSession((s) => s.user);
  return (
    <Stack gap="xl" maw={1100} mx="auto">
      <Stack gap="sm" py="xl">
        <span className={classes.badge}>Beta</span>
        <Title order={1}>The community economy of the Starlight universe</Title>
        <Text size="lg" c="dimmed" maw={720}>
          Hold Stardust, Starnote and Credits, send them to friends by nickname, trade them on the Quantum Hub and forge
          them into something new. Starlight is a beta for entertainment, not a bank.
        </Text>
        <Group>
          {user ? (
            <Button component={Link} to="/dashboard" size="md">
              Open your console
            </Button>
          ) : (
            <>
              <Button component={Link} to="/register" size="md">
                Join Starlight
              </Button>
              <Button component={Link} to="/login" size="md" variant="default">
                Sign in
              </Button>
            </>
          )}
        </Group>
      </Stack>
      <div className={classes.grid}>
        <section className={classes.card}>
          <Title order={3} size="h4">
            About
          </Title>
          <Text size="sm" c="dimmed" mt="xs">
            A bank of virtual currencies for a gaming community, run in the open by its admins with every movement
            written to a ledger.
          </Text>
        </section>
        <section className={classes.card}>
          <Title order={3} size="h4">
            Team
          </Title>
          <Text size="sm" c="dimmed" mt="xs">
            A small team of players and engineers.{' '}
            <a href={CHAT_URL} target="_blank" rel="noopener noreferrer" className={classes.link}>
              Find us in the community chat
            </a>
          </Text>
        </section>
        <section className={classes.card}>
          <Title order={3} size="h4">
            Token contracts
          </Title>
          {CONTRACTS.length === 0 ? (
            <Text size="sm" c="dimmed" mt="xs">
              Not published yet: the on-chain contracts will be listed here.{' '}
              <Link to="/lightpaper" className={classes.link}>
                Read the lightpaper
              </Link>
            </Text>
          ) : (
            <ul className={classes.list}>
              {CONTRACTS.map((c) => (
                <li key={c.address}>
                  <a href={c.url} target="_blank" rel="noopener noreferrer" className={classes.link}>
                    {c.name}
                  </a>{' '}
                  <Text span size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {c.address}
                  </Text>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section className={classes.card}>
        <Title order={2} size="h3">
          Roadmap
        </Title>
        <ul className={classes.list}>
          {ROADMAP.map((r) => (
            <li key={r.when}>
              <Text span fw={600}>
                {r.when}:
              </Text>{' '}
              {r.what}
            </li>
          ))}
        </ul>
      </section>
    </Stack>
  );
}
