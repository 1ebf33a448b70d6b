import { registerRequest } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { inWords, labelWords, wordsOf } from './field-words.ts';
import { schemaValidate } from './form.ts';

describe('inWords', () => {
  it("says an account field's rule and label instead of SPEC's wire form", () => {
    expect(inWords('"nickname" contains an invalid value')).toBe('Nickname must be 3 to 32 letters or digits');
    expect(inWords('"email" contains an invalid value')).toBe('E-mail must be a valid address, like name@example.com');
    expect(inWords('"email" is required')).toBe('E-mail is required');
  });

  it('leaves other messages as they are', () => {
    expect(inWords('Password not strong enough')).toBe('Password not strong enough');
    expect(inWords('"role" is not allowed')).toBe('"role" is not allowed');
    expect(inWords('"note" contains an invalid value')).toBe('"note" contains an invalid value');
    expect(inWords('Nickname already taken')).toBe('Nickname already taken');
  });

  it('gives the register form its words while the schema keeps the wire messages', () => {
    const values = { nickname: 'ab', email: 'nope', password: 'weak', referrer: 'x!' };
    expect(schemaValidate(registerRequest, (v) => v, inWords)(values)).toEqual({
      nickname: 'Nickname must be 3 to 32 letters or digits',
      email: 'E-mail must be a valid address, like name@example.com',
      password: 'Password not strong enough',
      referrer: "Referrer must be a member's nickname: 3 to 32 letters or digits",
    });
    expect(schemaValidate(registerRequest, (v) => v)(values).nickname).toBe('"nickname" contains an invalid value');
  });

  it("says a form's SPEC §5 messages with its labels (labelWords)", () => {
    const words = wordsOf(labelWords({ name: 'Name', 'input.amount': 'Input amount' }));
    expect(words('"name" is required')).toBe('Name is required');
    expect(words('"input.amount" contains an invalid value')).toBe('Input amount contains an invalid value');
    expect(words('"ticker" is required')).toBe('"ticker" is required');
    expect(words('Ticker already exists')).toBe('Ticker already exists');
  });
});
