/** The one schema type for timestamps in request bodies (spec: timestamps are ISO 8601 in UTC). */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { timestamp } from '#shared/jsonapi/attribute-types';
import { parseDocument } from '#shared/jsonapi/request-document';

describe('timestamp', () => {
  it('normalises Z and any offset to the same instant in UTC, as Date#toISOString writes it', () => {
    expect(timestamp.parse('2025-03-01T09:00:00+02:00')).toBe('2025-03-01T07:00:00.000Z');
    expect(timestamp.parse('2025-03-01T09:00:00-00:00')).toBe('2025-03-01T09:00:00.000Z');
    expect(timestamp.parse('2025-03-01T09:00:00Z')).toBe('2025-03-01T09:00:00.000Z');
    expect(timestamp.parse('2025-03-01T09:00:00.5Z')).toBe('2025-03-01T09:00:00.500Z');
    expect(timestamp.parse('2025-03-01T00:30:00+01:00')).toBe('2025-02-28T23:30:00.000Z');
    expect(timestamp.parse('2024-02-29T12:00:00Z')).toBe('2024-02-29T12:00:00.000Z');
  });

  it('refuses what is not a full date-time with a zone, and days that do not exist', () => {
    for (const value of [
      '2025-03-01',
      '2025-03-01T09:00:00',
      '2025-03-01T09:00Z',
      '2025-03-01 09:00:00Z',
      '2025-02-29T09:00:00Z',
      '2025-03-01T24:00:00Z',
      '2025-03-01T09:00:00+0200',
      'yesterday',
      '',
    ]) {
      expect(timestamp.safeParse(value).success, value).toBe(false);
    }
  });

  it('refuses an offset that would move the instant outside the years 0000–9999', () => {
    expect(timestamp.safeParse('9999-12-31T23:30:00-01:00').success).toBe(false);
    expect(timestamp.safeParse('0000-01-01T00:30:00+01:00').success).toBe(false);
    expect(timestamp.parse('9999-12-31T23:30:00+01:00')).toBe('9999-12-31T22:30:00.000Z');
  });

  it('a refused timestamp in a document is a 400 whose pointer names the attribute', () => {
    const schema = z.strictObject({
      data: z.strictObject({ attributes: z.strictObject({ at: timestamp }) }),
    });
    expect(() => parseDocument(schema, { data: { attributes: { at: '2025-03-01' } } })).toThrow(
      expect.objectContaining({
        problems: [
          expect.objectContaining({
            source: { pointer: '/data/attributes/at' },
            detail: expect.stringMatching(/ISO 8601 date-time/),
          }),
        ],
      }),
    );
  });
});
