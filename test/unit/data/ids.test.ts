/** Ids follow creation order (docs/api.md, Default sorts: `created_at` order is `sk` order because ids are UUIDv7). */
import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { UUID, uuidv7 } from '#shared/data/ids';

const timeOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
const strictlyIncreasing = (ids: string[]) => ids.every((id, i) => i === 0 || (ids[i - 1] ?? '') < id);

describe('uuidv7', () => {
  it('10,000 ids made in a tight loop are strictly increasing', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    expect(strictlyIncreasing(ids)).toBe(true);
  });

  it('10,000 ids for one given millisecond (an import dated by its start) are strictly increasing and carry it', () => {
    const at = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, () => uuidv7(at));
    expect(strictlyIncreasing(ids)).toBe(true);
    expect(new Set(ids.map(timeOf))).toEqual(new Set([at]));
  });

  it('ids for increasing times sort by time, repeated times included', () => {
    // Later than any id made before in this file: an earlier millisecond would not keep its order.
    let at = Date.parse('2100-01-01T00:00:00Z');
    const made: { at: number; id: string }[] = [];
    for (let i = 0; i < 5_000; i++) {
      at += i % 3 === 0 ? 0 : 1 + (i % 7) * 1_000;
      made.push({ at, id: uuidv7(at) });
    }
    expect(strictlyIncreasing(made.map((m) => m.id))).toBe(true);
    for (const { at: t, id } of made) expect(timeOf(id)).toBe(t);
  });

  it('an id for an earlier time than the latest carries that time and sorts before the later ids', () => {
    const later = uuidv7(Date.parse('2030-01-01T00:00:00Z'));
    const earlier = uuidv7(Date.parse('2021-06-01T12:00:00Z'));
    expect(timeOf(earlier)).toBe(Date.parse('2021-06-01T12:00:00Z'));
    expect(earlier < later).toBe(true);
  });

  it('ids are RFC 9562 version 7 UUIDs', () => {
    for (const id of [uuidv7(), uuidv7(0), uuidv7(2 ** 48 - 1)]) {
      expect(id).toMatch(UUID);
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(timeOf(uuidv7(0))).toBe(0);
  });
});
