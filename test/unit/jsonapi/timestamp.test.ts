/** The one schema type for timestamps in request bodies (spec: timestamps are ISO 8601 in UTC). */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { calendarDate, timestamp } from '#shared/jsonapi/attribute-types';
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

  it('accepts instants within the years 1900–2200 in UTC, both ends included, and nothing outside them', () => {
    expect(timestamp.parse('1900-01-01T00:00:00Z')).toBe('1900-01-01T00:00:00.000Z');
    expect(timestamp.parse('2200-12-31T23:59:59.999Z')).toBe('2200-12-31T23:59:59.999Z');
    expect(timestamp.parse('2201-01-01T00:30:00+01:00')).toBe('2200-12-31T23:30:00.000Z');
    for (const value of [
      '1899-12-31T23:59:59Z',
      '2201-01-01T00:00:00Z',
      '2200-12-31T23:30:00-01:00',
      '1900-01-01T00:30:00+01:00',
      '9999-12-31T23:59:59Z',
      '0000-01-01T00:00:00Z',
    ]) {
      const result = timestamp.safeParse(value);
      expect(result.success, value).toBe(false);
      expect(result.error?.issues[0]?.message, value).toBe('must fall within the years 1900–2200 in UTC');
    }
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

describe('calendarDate', () => {
  it('accepts real days within the years 1900–2200, both ends included', () => {
    expect(calendarDate().parse('1900-01-01')).toBe('1900-01-01');
    expect(calendarDate().parse('2200-12-31')).toBe('2200-12-31');
    for (const value of ['1899-12-31', '2201-01-01', '9999-12-31', '0000-01-01'])
      expect(calendarDate().safeParse(value).error?.issues[0]?.message, value).toBe(
        'must fall within the years 1900–2200',
      );
    expect(calendarDate().safeParse('2200-02-29').success).toBe(false);
  });
});
