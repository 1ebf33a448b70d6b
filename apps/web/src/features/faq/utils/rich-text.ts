/**
 * The FAQ's answers (SPEC §2 FAQ): plain text with line breaks and **bold** segments. Parsed into lines
 * of segments, so the page renders them as elements, never as HTML.
 */

/** One run of text, bold or not. */
export interface Segment {
  text: string;
  bold: boolean;
}

/** Splits `text` into lines (on "\n"), each into segments alternating plain and `**bold**`. */
export function parseRichText(text: string): Segment[][] {
  return text.split('\n').map((line) =>
    line
      .split('**')
      .map((part, i) => ({ text: part, bold: i % 2 === 1 }))
      .filter((s) => s.text !== ''),
  );
}
