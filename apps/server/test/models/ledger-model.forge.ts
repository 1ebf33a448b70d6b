/**
 * The ledger model's forge commands (composed by ledger-model.ts): a member starts the run's recipe (its
 * SN input taken at once), and the owner claims a finished process (its output paid) or cancels a running
 * one (its input paid back); the other way round is refused and moves nothing.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { call } from '../helpers.ts';
import {
  add,
  type CommandArb,
  FORGE_INPUT,
  FORGE_OUTPUT,
  held,
  type Model,
  type ModelContext,
  type ModelProcess,
  type Real,
  SN,
  who,
} from './ledger-model.state.ts';

/** The forge commands of a model run, as arbitraries. */
export function forgeCommands({ t, stats, expectMatches }: ModelContext) {
  /** A member starts the run's recipe `quantity` times: SN taken at once, or 409 when not covered. */
  class ForgeStartCommand implements fc.AsyncCommand<Model, Real> {
    readonly who: number;
    readonly quantity: number;
    constructor(who: number, quantity: number) {
      this.who = who;
      this.quantity = quantity;
    }
    check = () => true;
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const res = await call(t.app, r.members[this.who]?.token, 'POST', '/api/forge/startProcess', {
        recipeId: r.recipe,
        quantity: this.quantity,
      });
      const taken = FORGE_INPUT * BigInt(this.quantity);
      if (held(m, this.who, SN) < taken) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        add(m, this.who, SN, -taken);
        const id = res.json<{ process: { _id: string } }>().process._id;
        m.processes.push({ id, who: this.who, quantity: BigInt(this.quantity), finished: false, ended: false });
      }
      await expectMatches(m, r);
    }
    toString = () => `forge(${this.who}, x${this.quantity})`;
  }

  /**
   * The owner ends one of the run's processes (the `pick`-th still running): when `finished` its finish
   * date is moved into the past first (for good). Once finished, a claim pays the output and a cancel is
   * refused; before, it is inside the cancel window, so a cancel pays the input back and a claim is refused.
   */
  class ForgeEndCommand implements fc.AsyncCommand<Model, Real> {
    readonly pick: number;
    readonly cancel: boolean;
    readonly finished: boolean;
    constructor(pick: number, cancel: boolean, finished: boolean) {
      this.pick = pick;
      this.cancel = cancel;
      this.finished = finished;
    }
    check = (m: Readonly<Model>) => m.processes.some((p) => !p.ended);
    async run(m: Model, r: Real): Promise<void> {
      stats.steps++;
      const running = m.processes.filter((p) => !p.ended);
      const p = running[this.pick % running.length] as ModelProcess;
      if (this.finished && !p.finished) {
        await t.built.database.db.execute(
          sql`UPDATE forge_processes SET finish_date = now() - interval '1 second' WHERE id = ${p.id}`,
        );
        p.finished = true;
      }
      const res = await call(t.app, r.members[p.who]?.token, 'POST', '/api/forge/endProcess', {
        processId: p.id,
        cancel: this.cancel,
      });
      // A claim needs the finish date passed; a cancel needs it ahead (and the process under 10 minutes old).
      if (this.cancel === p.finished) {
        expect(res.statusCode, res.body).toBe(409);
      } else {
        expect(res.statusCode, res.body).toBe(200);
        p.ended = true;
        if (this.cancel) add(m, p.who, SN, FORGE_INPUT * p.quantity);
        else add(m, p.who, m.target, FORGE_OUTPUT * p.quantity);
      }
      await expectMatches(m, r);
    }
    toString = () =>
      `${this.cancel ? 'cancelForge' : 'claimForge'}(#${this.pick}, ${this.finished ? 'finished' : 'running'})`;
  }

  const start: CommandArb = fc.tuple(who, fc.integer({ min: 1, max: 30 })).map(([w, q]) => new ForgeStartCommand(w, q));
  const end: CommandArb = fc
    .tuple(fc.nat({ max: 20 }), fc.boolean(), fc.boolean())
    .map(([p, cancel, finished]) => new ForgeEndCommand(p, cancel, finished));
  return { start, end };
}
