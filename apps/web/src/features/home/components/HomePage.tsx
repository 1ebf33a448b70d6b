/**
 * SPEC §1: the public home page, marketing content: about, team, roadmap, token contracts. Plain markup
 * with a CSS module for its cards, grid and list, so the first paint of `/` needs no more components
 * than the shell's (issue 6 §6).
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useSession } from '../../../lib/session.ts';
import classes from './home.module.css';

const ROADMAP = [
  { when: 'Now', what: 'The bank: accounts, currencies, transfers with taxes, histories' },
  { when: 'Next', what: 'The Quantum Hub exchange with live order books' },
  { when: 'Then', what: 'The forge, Credits packages, synth chips and ship items' },
  { when: 'Later', what: 'Creator collections and third-party apps' },
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
            A small team of players and engineers. Find us in the community chat.
          </Text>
        </section>
        <section className={classes.card}>
          <Title order={3} size="h4">
            Token contracts
          </Title>
          <Text size="sm" c="dimmed" mt="xs">
            On-chain contracts will be published here when deposits and withdrawals open.{' '}
            <Link to="/lightpaper" className={classes.link}>
              Read the lightpaper
            </Link>
          </Text>
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
