/**
 * A money-moving endpoint that acts like the server behind a lost answer (DESIGN §3), for the retry tests
 * of the web's money calls: it records every request's Idempotency-Key, "commits" a request whose key it
 * has not seen (one movement; a request without a key always moves), replays a seen key with the same
 * body (and refuses one with another body, 409), and loses the first answer: the client sees a network
 * error. `pressTwice` presses and presses again; `signInMember` puts a signed-in member in the session, for the pages that need one.
 */
import type { User } from '@starlight/shared';
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { z } from 'zod';
import { useSession } from '../lib/session.ts';
import { type AnswerOf, answers, lose, refuse } from './answer.ts';
import { testUser } from './fixtures.ts';
import { server } from './setup.ts';

export interface MoneyLedger {
  /** The Idempotency-Key of each request, in order (null when none was sent). */
  keys: Array<string | null>;
  /** The body of each request, in order. */
  bodies: unknown[];
  /** How many requests moved money (a replayed key does not). */
  movements: number;
}

/**
 * Serves POST /api`path` as above; every answer after the first is `answer`, checked by the route's
 * response schema `schema` (as `answers.post`). Returns what it saw.
 */
export function serveMoneyMoving<S extends z.ZodType>(path: string, schema: S, answer: z.input<S>): MoneyLedger {
  const ledger: MoneyLedger = { keys: [], bodies: [], movements: 0 };
  const committed = new Map<string, string>();
  server.use(
    answers.post(path, schema, async ({ request }): Promise<AnswerOf<S>> => {
      const key = request.headers.get('idempotency-key');
      const body = await request.json();
      ledger.keys.push(key);
      ledger.bodies.push(body);
      const seen = key === null ? undefined : committed.get(key);
      if (seen !== undefined && seen !== JSON.stringify(body)) {
        return refuse(409, 'This Idempotency-Key was used for another request');
      }
      if (seen === undefined) {
        ledger.movements += 1;
        if (key !== null) committed.set(key, JSON.stringify(body));
      }
      return ledger.keys.length === 1 ? lose() : answer;
    }),
  );
  return ledger;
}

/** Two requests, the lost one and its retry, under one Idempotency-Key and the same body: one movement. */
export function expectRetriedOnce(ledger: MoneyLedger): void {
  expect(ledger.keys).toHaveLength(2);
  expect(ledger.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(ledger.keys[1]).toBe(ledger.keys[0]);
  expect(ledger.bodies[1]).toEqual(ledger.bodies[0]);
  expect(ledger.movements).toBe(1);
}

/**
 * `press` (the Send of a form, a row's action and its confirmation) once: the answer is lost and
 * 'Network Error' shows; then again: `success` shows, and the first try's error toast is gone (it would
 * otherwise stay for its 5000 ms next to the success).
 */
export async function pressTwice(press: () => Promise<void>, success: string): Promise<void> {
  await press();
  expect((await screen.findAllByText('Network Error')).length).toBeGreaterThan(0);
  await press();
  expect((await screen.findAllByText(success)).length).toBeGreaterThan(0);
  await expectNoErrorToast();
}

/** Waits until no 'Network Error' shows (as a toast or in a dialog); fails when one stays. */
export async function expectNoErrorToast(): Promise<void> {
  await waitFor(() => expect(screen.queryAllByText('Network Error')).toHaveLength(0));
}

/** Signs in member `alice` (role `role`) holding `balances`; returns the user. */
export function signInMember(balances: User['balances'] = [], role = 'user'): User {
  const user = testUser('alice', { role, balances });
  useSession.setState({ user, token: 'session-token', tokenexpires: Date.now() + 86_400_000 });
  return user;
}
