/**
 * The API's one sort order, for every path a list can take: a sort index's Query, the merge of several
 * organisations' pages, and a sort over records in hand. DynamoDB orders an index's string sort keys by
 * their UTF-8 bytes, which is code point order, so the collation is that order over case-folded text:
 * `sortKeyText` is what a sort index stores, and `compareCollated` orders values the way the index
 * orders those keys. No locale: `localeCompare` would put `école` before `zebra` and `_x` before `1x`,
 * where the index puts them after, and one list would order differently depending on how it was read.
 */

/** The highest code point: sorts after any real value, so a record without the field comes last. */
const MISSING_LAST = '\u{10FFFF}';

/** The text a value sorts by: case-folded, and never empty (an index key cannot be). */
export const sortKeyText = (value: unknown): string => {
  const text = typeof value === 'string' ? value.toLowerCase() : String(value ?? '');
  return text === '' ? MISSING_LAST : text;
};

/**
 * A UTF-16 code unit moved so that comparing units compares code points: a surrogate (half of a code
 * point above U+FFFF) goes above U+E000–U+FFFF, which JavaScript's own `<` puts after it.
 */
const codePointRank = (unit: number) =>
  unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;

/** Two strings in code point order (UTF-8 byte order, DynamoDB's): negative, zero or positive. */
export const compareCodePoints = (a: string, b: string): number => {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
};

/** Two field values in the API's sort order: numbers by value (a version 10 after 9), the rest as `sortKeyText`. */
export const compareCollated = (a: unknown, b: unknown): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : compareCodePoints(sortKeyText(a), sortKeyText(b));
