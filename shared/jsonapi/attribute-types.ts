/**
 * Schema types for request attributes, bounded so that what passes can be stored: text of a declared
 * length without the control characters that break keys, headers and file names, and numbers that are
 * exact. Every resource's schema builds its members from these.
 *
 * Lengths count UTF-16 code units (what zod and JavaScript count); one unit is at most 3 UTF-8 bytes, so
 * the longest value that becomes part of a key (a uniqueness claim, a sort index: 255 units) fits a
 * DynamoDB sort key (1,024 bytes) with room for its prefix; the data layer refuses anything that does
 * not (storage-limits.ts). The well-formed input check at the edge has already refused lone surrogates
 * and NUL in every string.
 */
import * as z from 'zod';
import { hasControlCharacter } from '../domain/text';

/** Largest amount of money, in minor units (10^12: ten billion pounds); sums of them stay exact. */
export const MONEY_MAX = 1e12;

// Single lines refuse every control character; text keeps tab and line breaks.
const singleLine = (schema: z.ZodString) =>
  schema.refine((s) => !hasControlCharacter(s), 'Must be a single line without control characters.');
const text = (schema: z.ZodString) =>
  schema.refine(
    (s) => !hasControlCharacter(s, '\t\n\r'),
    'Must not contain control characters other than tab and line breaks.',
  );

/** One line of at most `max` units, possibly empty: codes, references, short optional names. */
export const line = (max: number) => singleLine(z.string().max(max));

/** One line, trimmed, of 1 to `max` units: names, titles, serials. */
export const requiredLine = (max: number) => singleLine(z.string().trim().min(1).max(max));

/** Free text of at most `max` units, line breaks allowed: descriptions, notes. */
export const freeText = (max: number) => text(z.string().max(max));

/** Free text, trimmed, of 1 to `max` units. */
export const requiredText = (max: number) => text(z.string().trim().min(1).max(max));

/** An integer in [min, max]; both within ±(2^53 − 1), where every integer is exact. */
export const integer = (min: number, max: number) => z.number().int().min(min).max(max);

/** An amount of money in integer minor units. */
export const minorUnits = () => integer(0, MONEY_MAX);

/**
 * An absolute URL of at most `max` characters, taken as written: no whitespace or control character
 * anywhere (a client percent-encodes them, `%20`). The URL parser, and zod's URL check after it, trim
 * spaces and drop tabs and line breaks, so such a URL would be shown as one text and fetched as another;
 * hence the refusal comes first, on the text as sent.
 */
export const url = (max = 2000) =>
  z
    .string()
    .max(max)
    .refine(
      (s) => !/\s/.test(s) && !hasControlCharacter(s),
      'Must be a URL without whitespace or control characters: percent-encode them (%20, %0A).',
    )
    .check(z.url());

/** An e-mail address (RFC 5321 caps one at 254 characters). */
export const email = () => z.email().max(254);

/**
 * The years, inclusive, within which every timestamp (in UTC) and date the API accepts falls: wide enough
 * for a date of birth and a long lease, and far inside what the keys and reads expect, so no accepted
 * value sorts past a range a read asks for (a rate valid from 9999-12-31 was stored and never listed).
 */
export const ACCEPTED_YEARS = { first: 1900, last: 2200 } as const;
const YEARS_MESSAGE = `must fall within the years ${ACCEPTED_YEARS.first}–${ACCEPTED_YEARS.last}`;

/** Whether an ISO 8601 date or date-time (as `toISOString` or `z.iso.date` write them) is in those years. */
const inAcceptedYears = (iso: string) => {
  const year = /^(\d{4})-/.exec(iso)?.[1];
  return year !== undefined && Number(year) >= ACCEPTED_YEARS.first && Number(year) <= ACCEPTED_YEARS.last;
};

/**
 * Every timestamp the API accepts: an ISO 8601 date-time with seconds and `Z` or an offset
 * (`2025-03-01T09:00:00+02:00`), stored and served as the same instant in UTC the way the service writes
 * its own (`Date#toISOString()`, `2025-03-01T07:00:00.000Z`), since the spec says timestamps are UTC and
 * stored values are compared and sorted as strings. The instant, in UTC, must fall within
 * `ACCEPTED_YEARS` (an offset may carry it out of them).
 */
export const timestamp = z.lazy(() =>
  z.iso
    .datetime({
      offset: true,
      error: 'must be an ISO 8601 date-time with seconds and Z or an offset, such as 2026-01-31T09:00:00Z',
    })
    .transform((value, context) => {
      const utc = new Date(value).toISOString();
      if (inAcceptedYears(utc)) return utc;
      context.issues.push({ code: 'custom', input: value, message: `${YEARS_MESSAGE} in UTC` });
      return z.NEVER;
    })
    // What it serves, for the document's read attributes (a transform alone says nothing of its output).
    .pipe(z.iso.datetime()),
);

/**
 * A calendar date, `YYYY-MM-DD` (a date of birth, a start date): a real day, no time or zone, within
 * `ACCEPTED_YEARS`.
 */
export const calendarDate = () =>
  z.iso
    .date({ error: 'must be a date, YYYY-MM-DD, such as 2026-01-31' })
    .refine(inAcceptedYears, YEARS_MESSAGE);

/**
 * A BCP 47 language tag (`en-GB`, `cy`, `pt-BR`), stored in its canonical case. The runtime's own
 * `Intl.getCanonicalLocales` parses it (RFC 5646 syntax), so no tag table ships with the bundle. The
 * language must be an ISO 639 code (2 or 3 letters): the syntax also allows 5 to 8 letters, for
 * languages registered later, of which there are none, so `english` is refused rather than kept.
 */
export const languageTag = () =>
  z
    .string()
    .max(35)
    .transform((tag, context) => {
      try {
        if (!/^[A-Za-z]{2,3}(-|$)/.test(tag)) throw new RangeError(tag);
        const [canonical] = Intl.getCanonicalLocales(tag);
        if (canonical) return canonical;
      } catch {}
      context.issues.push({
        code: 'custom',
        input: tag,
        message: 'must be a BCP 47 language tag, such as en-GB',
      });
      return z.NEVER;
    })
    .pipe(z.string());

/**
 * An IANA time zone name (`Europe/London`, `UTC`), as the runtime's time zone database knows it, stored
 * as that database spells it; fixed offsets (`+01:00`) are refused: they do not follow daylight saving.
 */
export const timeZone = () =>
  z
    .string()
    .max(64)
    .transform((zone, context) => {
      if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
        try {
          return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
        } catch {}
      }
      context.issues.push({
        code: 'custom',
        input: zone,
        message: 'must be an IANA time zone, such as Europe/London',
      });
      return z.NEVER;
    })
    .pipe(z.string());
