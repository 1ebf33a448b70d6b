/**
 * First-start data (issue: currencies 1 SD, 2 SN, 3 Credits) and the admin account ensured from
 * ADMIN_NICKNAME / ADMIN_EMAIL / ADMIN_PASSWORD (DESIGN §2). Safe to run on every start.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { currencies } from './db/schema/index.ts';
import { hashPassword } from './lib/passwords.ts';
import { findUserByNickname, insertUser } from './modules/accounts/accounts.queries.ts';
import { seedChipSale } from './modules/chips/chips.seed.ts';
import { updateUser } from './modules/users/users.queries.ts';

export interface SeedResult {
  adminNickname: string;
  adminId: string;
  /** Whether this start made the admin account: the database was new (the demo community's cue). */
  fresh: boolean;
  /** Set only when this start created the admin with a random password: print it once. */
  generatedPassword?: string;
}

/** A random password that passes SPEC §5's strength rule. */
function randomStrongPassword(): string {
  return `Sl-${randomBytes(12).toString('base64url')}9a!`;
}

/** Seeds the three currencies when there are none, the synth chip sale once, and ensures the admin account. */
export async function seed(db: Db, config: Config): Promise<SeedResult> {
  const adminNickname = config.ADMIN_NICKNAME ?? 'admin';
  let generatedPassword: string | undefined;
  const existing = await findUserByNickname(db, adminNickname);
  let adminId = existing?.id;
  if (!existing) {
    const password = config.ADMIN_PASSWORD ?? randomStrongPassword();
    if (!config.ADMIN_PASSWORD) generatedPassword = password;
    const admin = await insertUser(db, {
      nickname: adminNickname,
      email: (config.ADMIN_EMAIL ?? `${adminNickname}@starlight.local`).toLowerCase(),
      passwordHash: await hashPassword(password),
      role: 'admin',
      isEmailVerified: true,
    });
    adminId = admin.id;
  } else if (existing.role !== 'admin' || !existing.isActive) {
    await updateUser(db, existing.id, { role: 'admin', isActive: true });
  }

  await db
    .insert(currencies)
    .values([
      {
        currencyId: 1,
        ticker: 'SD',
        name: 'Stardust',
        precision: 2,
        canTransfer: true,
        canMint: true,
        canBurn: true,
        transferTax: '0.01',
        taxCollector: adminNickname,
      },
      { currencyId: 2, ticker: 'SN', name: 'Starnote', precision: 2, canTransfer: true, canMint: true, canBurn: true },
      { currencyId: 3, ticker: 'CR', name: 'Credits', precision: 2, canTransfer: false, canMint: true, canBurn: true },
    ])
    .onConflictDoNothing();
  await seedChipSale(db, config.CHIP_SUPPLY);
  return {
    adminNickname,
    adminId: adminId as string,
    fresh: !existing,
    ...(generatedPassword ? { generatedPassword } : {}),
  };
}
