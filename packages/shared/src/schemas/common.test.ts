import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseAmount } from '../money.ts';
import {
  createCurrencyRequest,
  mintRequest,
  modifyCurrencyRequest,
  p2pTransferRequest,
  transactionsRequest,
} from './bank.ts';
import {
  amountInput,
  fieldLabel,
  fraction,
  type Issue,
  issueList,
  issueMessage,
  paging,
  precisionMessage,
} from './common.ts';
import { loginRequest, registerRequest, updateProfileRequest } from './user.ts';

/** The issues of a parse that must fail. */
function issuesOf(schema: z.ZodType, input: unknown): Issue[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.issues;
}

/** The user-facing message (the first issue's), as the server sends it. */
function firstMessage(schema: z.ZodType, input: unknown): string {
  const first = issuesOf(schema, input)[0];
  if (!first) throw new Error('no issue');
  return issueMessage(first);
}

const validRegister = { nickname: 'starfarer1', email: 'star@example.com', password: 'Str0ng!Pass' };

describe('register request messages (SPEC §5)', () => {
  it('lists every missing field as required', () => {
    expect(issueList(issuesOf(registerRequest, {}))).toEqual([
      { field: 'nickname', message: '"nickname" is required' },
      { field: 'email', message: '"email" is required' },
      { field: 'password', message: '"password" is required' },
    ]);
  });

  it('names invalid values and uses the password rule text', () => {
    expect(issueList(issuesOf(registerRequest, { nickname: 'ab', email: 'x', password: 'weak' }))).toEqual([
      { field: 'nickname', message: '"nickname" contains an invalid value' },
      { field: 'email', message: '"email" contains an invalid value' },
      { field: 'password', message: 'Password not strong enough' },
    ]);
  });

  it.each([
    ['too short', 'Ab1!xyz'],
    ['too long', `Ab1!${'x'.repeat(29)}`],
    ['with whitespace', 'Ab1! xyzw'],
    ['without lowercase', 'AB1!XYZW'],
    ['without uppercase', 'ab1!xyzw'],
    ['without a digit', 'Abc!xyzw'],
    ['without a symbol', 'Ab1cxyzw'],
  ])('refuses a password %s', (_label, password) => {
    expect(firstMessage(registerRequest, { ...validRegister, password })).toBe('Password not strong enough');
  });

  it('accepts a password of 8 and of 32 characters', () => {
    expect(registerRequest.safeParse({ ...validRegister, password: 'Ab1!xyzw' }).success).toBe(true);
    expect(registerRequest.safeParse({ ...validRegister, password: `Ab1!${'x'.repeat(28)}` }).success).toBe(true);
  });

  it('refuses unknown fields by name', () => {
    expect(firstMessage(registerRequest, { ...validRegister, role: 'admin' })).toBe('"role" is not allowed');
    expect(issueList(issuesOf(registerRequest, { ...validRegister, role: 'admin' }))).toEqual([
      { field: 'role', message: '"role" is not allowed' },
    ]);
  });

  it('refuses non-alphanumeric, short and long nicknames', () => {
    for (const nickname of ['star_farer', 'star farer', 'ab', 'x'.repeat(33), 'étoile']) {
      expect(firstMessage(registerRequest, { ...validRegister, nickname })).toBe(
        '"nickname" contains an invalid value',
      );
    }
    expect(registerRequest.safeParse({ ...validRegister, nickname: 'x'.repeat(32) }).success).toBe(true);
  });

  it('lowercases and trims the e-mail', () => {
    const parsed = registerRequest.parse({ ...validRegister, email: '  Star@Example.COM ' });
    expect(parsed.email).toBe('star@example.com');
  });

  it('checks an optional referrer as a nickname', () => {
    expect(registerRequest.safeParse({ ...validRegister, referrer: 'friend1' }).success).toBe(true);
    expect(firstMessage(registerRequest, { ...validRegister, referrer: 'a-b' })).toBe(
      '"referrer" contains an invalid value',
    );
  });
});

describe('other request messages', () => {
  it('login requires both fields', () => {
    expect(issueList(issuesOf(loginRequest, {}))).toEqual([
      { field: 'nickOrEmail', message: '"nickOrEmail" is required' },
      { field: 'password', message: '"password" is required' },
    ]);
  });

  it('updateProfile refuses other fields and non-boolean values', () => {
    expect(firstMessage(updateProfileRequest, { isAnonymous: true, role: 'admin' })).toBe('"role" is not allowed');
    expect(firstMessage(updateProfileRequest, { isAnonymous: 'yes' })).toBe('"isAnonymous" contains an invalid value');
  });

  it('says amount rules in words a member reads, with the field in words', () => {
    expect(fieldLabel('amount')).toBe('Amount');
    expect(fieldLabel('input.amount')).toBe('Input amount');
    expect(fieldLabel(['items', 0, 'amount'])).toBe('Items amount');
    expect(fieldLabel('initialAmount')).toBe('Initial amount');
    expect(precisionMessage('Amount', 2)).toBe('Amount can have at most 2 decimals');
    expect(precisionMessage('Amount', 1)).toBe('Amount can have at most 1 decimal');
    expect(precisionMessage('Amount', 0)).toBe('Amount must be a whole number');
    expect(
      issueList(issuesOf(p2pTransferRequest, { recipientNickName: 'friend1', currencyId: 1, amount: 'x' })),
    ).toEqual([{ field: 'amount', message: 'Amount must be a number, like 12.50' }]);
  });

  it('p2pTransfer checks the amount and the currency id', () => {
    const base = { recipientNickName: 'friend1', currencyId: 1, amount: '1' };
    expect(firstMessage(p2pTransferRequest, { ...base, amount: '0.001' })).toBe('Amount must be at least 0.01');
    expect(firstMessage(p2pTransferRequest, { ...base, amount: -5 })).toBe('Amount must be at least 0.01');
    expect(firstMessage(p2pTransferRequest, { ...base, amount: '1e3' })).toBe('Amount must be a number, like 12.50');
    expect(firstMessage(p2pTransferRequest, { ...base, currencyId: 'x' })).toBe(
      '"currencyId" contains an invalid value',
    );
    expect(firstMessage(p2pTransferRequest, { currencyId: 1, amount: 1 })).toBe('"recipientNickName" is required');
    expect(firstMessage(p2pTransferRequest, { recipientNickName: 'friend1', amount: 1 })).toBe(
      '"currencyId" is required',
    );
    for (const currencyId of [null, true, '', 1.5, '1.5']) {
      expect(firstMessage(p2pTransferRequest, { ...base, currencyId })).toBe('"currencyId" contains an invalid value');
    }
    // A select sends the id as digits.
    expect(p2pTransferRequest.parse({ ...base, currencyId: '2' }).currencyId).toBe(2);
    // Note is optional; the amount arrives as 10^-9 units.
    expect(p2pTransferRequest.parse({ ...base, amount: 12.5 }).amount).toBe(12_500_000_000n);
  });

  it('mint requires a note of 4 to 255 characters', () => {
    const base = { recipientNickName: 'friend1', currencyId: 1, amount: '1' };
    expect(firstMessage(mintRequest, base)).toBe('"note" is required');
    expect(firstMessage(mintRequest, { ...base, note: 'abc' })).toBe('"note" contains an invalid value');
    expect(firstMessage(mintRequest, { ...base, note: 'x'.repeat(256) })).toBe('"note" contains an invalid value');
    expect(mintRequest.safeParse({ ...base, note: 'abcd' }).success).toBe(true);
  });

  it('names nested paging fields with their path', () => {
    expect(issueList(issuesOf(transactionsRequest, { paging: { limit: 4, page: 0 } }))).toEqual([
      { field: 'paging.limit', message: '"paging.limit" contains an invalid value' },
      { field: 'paging.page', message: '"paging.page" contains an invalid value' },
    ]);
    expect(firstMessage(transactionsRequest, {})).toBe('"paging" is required');
    expect(firstMessage(transactionsRequest, { paging: { limit: 10, page: 1, size: 3 } })).toBe(
      '"paging.size" is not allowed',
    );
  });

  it('modifyCurrency refuses the ticker; createCurrency requires the core fields', () => {
    expect(firstMessage(modifyCurrencyRequest, { currencyId: 1, ticker: 'NEW' })).toBe('"ticker" is not allowed');
    const messages = issueList(issuesOf(createCurrencyRequest, { ticker: 'NEW' })).map((i) => i.message);
    expect(messages).toContain('"name" is required');
    expect(messages).toContain('"precision" is required');
    expect(messages).toContain('"canTransfer" is required');
  });
});

describe('field rules', () => {
  it('paging: limit 5..50, page >= 1, integers', () => {
    expect(paging.safeParse({ limit: 5, page: 1 }).success).toBe(true);
    expect(paging.safeParse({ limit: 50, page: 100 }).success).toBe(true);
    expect(paging.safeParse({ limit: 4, page: 1 }).success).toBe(false);
    expect(paging.safeParse({ limit: 51, page: 1 }).success).toBe(false);
    expect(paging.safeParse({ limit: 10, page: 0 }).success).toBe(false);
    expect(paging.safeParse({ limit: 10.5, page: 1 }).success).toBe(false);
  });

  it('amount: at least 0.01, number or string', () => {
    expect(amountInput.parse('0.01')).toBe(10_000_000n);
    expect(amountInput.parse(0.01)).toBe(10_000_000n);
    expect(amountInput.safeParse('0.009').success).toBe(false);
    expect(amountInput.safeParse(0).success).toBe(false);
    expect(amountInput.safeParse(Number.NaN).success).toBe(false);
    expect(amountInput.safeParse(null).success).toBe(false);
  });

  it('percent/tax/fee: a fraction 0 to 1', () => {
    expect(fraction.parse(0)).toBe(0n);
    expect(fraction.parse('0.05')).toBe(parseAmount('0.05'));
    expect(fraction.parse(1)).toBe(parseAmount('1'));
    expect(fraction.safeParse(1.01).success).toBe(false);
    expect(fraction.safeParse(-0.1).success).toBe(false);
  });
});
