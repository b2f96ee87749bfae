/**
 * Issue 39, finding 8: the one URL attribute type refuses whitespace and control characters, which the
 * URL parser drops or trims, so a stored URL is the one that will be fetched (a webhook's `url`, an
 * equipment manufacturer's `website`).
 */
import { describe, expect, it } from 'vitest';
import { url } from '#shared/jsonapi/attribute-types';

/** A line break, spaces, a tab, Unicode line and paragraph separators, a no-break space, DEL. */
const URLS_WITH_WHITESPACE = [
  'https://example.com/a\r\nX: y',
  'https://example.com/a\nb',
  'https://exa mple.com/',
  'https://example.com/a b',
  ' https://example.com/',
  'https://example.com/ ',
  'https://example.com/a\tb',
  'https://example.com/a\u2028b',
  'https://example.com/a\u2029b',
  'https://example.com/a\u00a0b',
  'https://example.com/a\u007fb',
];

describe('url', () => {
  it('refuses a URL holding whitespace or a control character anywhere', () => {
    for (const value of URLS_WITH_WHITESPACE) expect(url().safeParse(value).success, value).toBe(false);
  });

  it('takes an absolute URL as written, percent-encoded spaces and non-ASCII names included', () => {
    for (const value of [
      'https://hooks.example.com/in',
      'https://example.com/a%20b?q=1%0A#x',
      'http://127.0.0.1:8080/hooks',
      'https://bücher.example/',
    ])
      expect(url().parse(value)).toBe(value);
  });
});
