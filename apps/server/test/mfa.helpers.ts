/**
 * Helpers of the second-factor tests (mfa.totp.test.ts, mfa.signin.test.ts, mfa.step-up.test.ts): enrolling a
 * member's authenticator app through the API and making its codes with otplib from the secret, as the app
 * on a phone would.
 */
import type { RecoveryCodesResponse, TotpSetupResponse } from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { expect } from 'vitest';
import { call } from './helpers.ts';

/** The code of `secret` `steps` time steps (30 s) from now. */
export function codeAt(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** A six-digit code that is none of `secret`'s codes within the tolerance (a step each way). */
export async function wrongCode(secret: string): Promise<string> {
  const right = new Set(await Promise.all([-1, 0, 1].map((s) => codeAt(secret, s))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!right.has(code)) return code;
  }
}

export interface Enrolled {
  secret: string;
  recoveryCodes: string[];
}

/**
 * Turns TOTP on for the member of `token`: setup, then enable with the code of the step before now, so
 * the codes of now and of the next step are still unused (`codeAt(secret)`, `codeAt(secret, 1)`).
 */
export async function enrol(app: FastifyInstance, token: string): Promise<Enrolled> {
  const setup = await call(app, token, 'POST', '/api/user/mfa/totp/setup', {});
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<TotpSetupResponse>();
  const enabled = await call(app, token, 'POST', '/api/user/mfa/totp/enable', { code: await codeAt(secret, -1) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { secret, recoveryCodes: enabled.json<RecoveryCodesResponse>().recoveryCodes };
}
