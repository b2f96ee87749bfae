import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareCollated, sortKeyText } from '#shared/data/collation';

/** DynamoDB's order of string keys: their UTF-8 bytes. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('the API sort order (collation): the order a sort index keeps', () => {
  it('compares strings as DynamoDB orders their UTF-8 bytes, characters above U+FFFF included', () => {
    const values = ['a', 'B', 'é', 'z', '_', '1', '~', '\u{FF5E}', '\u{1F600}', '\u{E000}', 'ab', ''];
    for (const x of values)
      for (const y of values)
        expect(Math.sign(compareCodePoints(x, y)), `${x} ${y}`).toBe(Math.sign(byUtf8(x, y)));
  });

  it('folds case, puts a missing or empty value after every other, and numbers by value', () => {
    expect(sortKeyText('École')).toBe('école');
    expect(compareCollated('Alpha', 'alpha')).toBe(0);
    expect(compareCollated('zebra', 'École')).toBeLessThan(0);
    expect(compareCollated(undefined, 'zebra')).toBeGreaterThan(0);
    expect(compareCollated('', '\u{FFFF}')).toBeGreaterThan(0);
    expect(compareCollated(9, 10)).toBeLessThan(0);
  });
});
