import type { ForgeProcess } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { countdown, processAction } from './process-action.ts';

const START = Date.parse('2026-11-24T10:00:00Z');
const process = (over: Partial<ForgeProcess> = {}): ForgeProcess => ({
  _id: 'p',
  createdAt: new Date(START).toISOString(),
  finishDate: new Date(START + 3600_000).toISOString(),
  recipe: { _id: 'r', name: 'Smelt' },
  input: { currencyId: 1, amount: '10.00' },
  output: { currencyId: 2, amount: '1' },
  quantity: 1,
  state: 1,
  user: { nickname: 'm' },
  endedAt: null,
  ...over,
});

describe('processAction', () => {
  it('offers Cancel in the first 10 minutes, then shows ...Forging until the finish date, then Claim', () => {
    expect(processAction(process(), START + 599_999)).toEqual({
      kind: 'cancel',
      label: '...Forging',
      closesAt: START + 600_000,
    });
    expect(processAction(process(), START + 600_000)).toEqual({ kind: 'status', label: '...Forging' });
    expect(processAction(process(), START + 3600_000)).toEqual({ kind: 'claim' });
  });

  it('says Melting when the input amount is below the output, and Forged/Melted/Cancelled once ended', () => {
    const melt = { input: { currencyId: 1, amount: '1' }, output: { currencyId: 2, amount: '5' } };
    expect(processAction(process(melt), START + 700_000)).toEqual({ kind: 'status', label: '...Melting' });
    expect(processAction(process({ state: 3 }), START)).toEqual({ kind: 'status', label: 'Forged' });
    expect(processAction(process({ ...melt, state: 3 }), START)).toEqual({ kind: 'status', label: 'Melted' });
    expect(processAction(process({ state: 4 }), START)).toEqual({ kind: 'status', label: 'Cancelled' });
  });

  it('never offers Cancel after the finish date, even inside the window', () => {
    const short = process({ finishDate: new Date(START + 60_000).toISOString() });
    expect(processAction(short, START + 60_000)).toEqual({ kind: 'claim' });
  });
});

describe('countdown', () => {
  it('counts down in hours, minutes and seconds, with days when longer, and stops at zero', () => {
    expect(countdown(START + 3_723_000, START)).toBe('01:02:03');
    expect(countdown(START + 90_061_000, START)).toBe('1d 01:01:01');
    expect(countdown(START + 500, START)).toBe('00:00:01');
    expect(countdown(START, START + 5_000)).toBe('00:00:00');
  });
});
