import { describe, expect, it } from 'vitest';
import { FAQ_MAX_AGE_MS, isFaqFresh } from './faq-data.ts';
import { parseRichText } from './rich-text.ts';

describe('FAQ answers (SPEC §2)', () => {
  it('splits lines and bold segments', () => {
    expect(parseRichText('Plain **bold** tail\n**All bold**')).toEqual([
      [
        { text: 'Plain ', bold: false },
        { text: 'bold', bold: true },
        { text: ' tail', bold: false },
      ],
      [{ text: 'All bold', bold: true }],
    ]);
  });

  it('keeps text with no markers as one plain segment, and an empty line as none', () => {
    expect(parseRichText('Just text\n')).toEqual([[{ text: 'Just text', bold: false }], []]);
  });
});

describe('the stored FAQ', () => {
  const now = Date.UTC(2026, 10, 22);
  it('is used for 24 hours after it was fetched', () => {
    expect(isFaqFresh(now - 1000, now)).toBe(true);
    expect(isFaqFresh(now - FAQ_MAX_AGE_MS + 1, now)).toBe(true);
  });
  it('is fetched again after 24 hours, or when stamped in the future', () => {
    expect(isFaqFresh(now - FAQ_MAX_AGE_MS, now)).toBe(false);
    expect(isFaqFresh(now + 60_000, now)).toBe(false);
  });
});
