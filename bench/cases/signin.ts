/**
 * The sign-in benchmark (DESIGN §11.1): what a second factor adds to signing in. Each case signs members
 * in one at a time through the HTTP API and reports the latency of a whole sign-in (p50/p99, ms):
 * - login_password: `POST /api/user/login` of an account without a second factor;
 * - login_totp: `POST /api/user/login` answering an `mfaToken`, then `POST /api/user/login/mfa` with the
 *   authenticator's current code.
 * A code is accepted once per account and time step, so each TOTP member signs in once per 30-second
 * step: the case signs in every member once (BENCH_SIGNINS members a case, 200 by default). Sign-ins run
 * one at a time: the figure is a member's wait, not the server's throughput (argon2 is the bulk of it).
 */
import { performance } from 'node:perf_hooks';
import { generate } from 'otplib';
import { mapLimit } from '../lib/api.ts';
import type { BenchContext, Suite } from '../lib/context.ts';

const PASSWORD = 'Bench-signin-9!';
/** The TOTP time step (RFC 6238, 30 s). */
const STEP_MS = 30_000;

interface SignInMember {
  nickname: string;
  /** The authenticator's secret (base32) of a TOTP member. */
  secret?: string;
}

/** Registers `count` members `<prefix><tag>NNNN`; with `totp`, each enrols an authenticator app. */
async function registerMembers(
  ctx: BenchContext,
  prefix: string,
  count: number,
  totp: boolean,
): Promise<SignInMember[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix}${ctx.tag}${String(i).padStart(4, '0')}`);
  return mapLimit(names, 8, async (nickname) => {
    const { token } = await ctx.api.post<{ token: string }>('/api/user/register', {
      nickname,
      email: `${nickname}@bench.example.com`,
      password: PASSWORD,
    });
    if (!totp) return { nickname };
    const { secret } = await ctx.api.post<{ secret: string }>('/api/user/mfa/totp/setup', {}, token);
    await ctx.api.post('/api/user/mfa/totp/enable', { code: await generate({ secret }) }, token);
    return { nickname, secret };
  });
}

/** The value at quantile `q` (0..1) of sorted `samples`, rounded to 0.1 ms. */
function quantile(samples: readonly number[], q: number): number {
  const at = Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1);
  return Math.round((samples[Math.max(0, at)] ?? 0) * 10) / 10;
}

/** Signs `member` in (with its code when it has a secret); the milliseconds it took. */
async function signIn(ctx: BenchContext, member: SignInMember): Promise<number> {
  const started = performance.now();
  const first = await ctx.api.post<{ token?: string; mfaToken?: string }>('/api/user/login', {
    nickOrEmail: member.nickname,
    password: PASSWORD,
  });
  if (member.secret) {
    if (!first.mfaToken) throw new Error(`${member.nickname}: login answered no mfaToken`);
    const code = await generate({ secret: member.secret });
    const second = await ctx.api.post<{ token?: string }>('/api/user/login/mfa', { mfaToken: first.mfaToken, code });
    if (!second.token) throw new Error(`${member.nickname}: login/mfa answered no token`);
  } else if (!first.token) {
    throw new Error(`${member.nickname}: login answered no token`);
  }
  return performance.now() - started;
}

const CASES = [
  { name: 'login_password', prefix: 'sipw', totp: false },
  { name: 'login_totp', prefix: 'sito', totp: true },
];

export const signinSuite: Suite = {
  name: 'signin',
  cases: CASES.map((c) => c.name),
  usesPgbench: false,
  async run(ctx, selected, report) {
    const count = Number(process.env.BENCH_SIGNINS || 200);
    for (const c of CASES) {
      if (!selected(c.name)) continue;
      ctx.log(`signin: ${c.name}: registering ${count} members...`);
      const members = await registerMembers(ctx, c.prefix, count, c.totp);
      // Enrolling used each account's code of its time step: sign-ins start in the next step.
      if (c.totp) await new Promise((resolve) => setTimeout(resolve, STEP_MS - (Date.now() % STEP_MS) + 1000));
      // Every member once, one at a time; the first few warm the server's paths up unmeasured.
      for (const member of members.slice(0, 5)) await signIn(ctx, member).catch(() => undefined);
      const samples: number[] = [];
      for (const member of members.slice(5)) samples.push(await signIn(ctx, member));
      samples.sort((a, b) => a - b);
      report({
        case: c.name,
        signins: samples.length,
        p50_ms: quantile(samples, 0.5),
        p99_ms: quantile(samples, 0.99),
        max_ms: quantile(samples, 1),
      });
    }
  },
};
