import { describe, expect, it } from 'vitest';
import type { CollectionQuery } from '#shared/data/collection-query';
import { applyInMemory } from '#shared/data/in-memory-collection';
import type { StoredResource } from '#shared/data/stored-resource';

const record = (id: string, name: string, created: string, location?: object): StoredResource => ({
  pk: 'p',
  sk: id,
  type: 'organisations',
  id,
  org_id: id,
  attributes: { name, ...(location && { location }) },
  meta: { created_at: created },
  rels: {},
  version: 1,
});

const records = [
  record('a', 'beta', '2026-01-02T00:00:00.000Z', { latitude: 51.5, longitude: -0.1 }),
  record('b', 'Alpha', '2026-01-01T00:00:00.000Z', { latitude: 55.9, longitude: -3.2 }),
  record('c', 'gamma', '2026-01-03T00:00:00.000Z'),
];

const query = (over: Partial<CollectionQuery>): CollectionQuery => ({
  filters: [],
  sort: { field: 'name', path: 'attributes.name', descending: false },
  page: { limit: 25, offset: 0 },
  include: [],
  ...over,
});

describe('collection engine over records in hand', () => {
  it('sorts case-insensitively, ascending or descending', () => {
    expect(applyInMemory(records, query({})).items.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    const descending = query({ sort: { field: 'name', path: 'attributes.name', descending: true } });
    expect(applyInMemory(records, descending).items.map((r) => r.id)).toEqual(['c', 'a', 'b']);
  });

  it('pages after filtering and counts what matched', () => {
    const result = applyInMemory(
      records,
      query({
        filters: [
          { field: 'created_at', path: 'meta.created_at', op: 'since', value: '2026-01-02T00:00:00.000Z' },
        ],
        page: { limit: 1, offset: 1 },
      }),
    );
    expect(result.total).toBe(2);
    expect(result.items.map((r) => r.id)).toEqual(['c']);
  });

  it('a bounding box keeps records inside it and drops those without a location', () => {
    const result = applyInMemory(
      records,
      query({
        filters: [
          {
            field: 'location',
            path: 'attributes.location',
            op: 'box',
            bottomLeft: { latitude: 50, longitude: -1 },
            topRight: { latitude: 52, longitude: 1 },
          },
        ],
      }),
    );
    expect(result.items.map((r) => r.id)).toEqual(['a']);
  });

  it('an out-of-range page is empty', () => {
    expect(applyInMemory(records, query({ page: { limit: 10, offset: 10 } }))).toEqual({
      items: [],
      total: 3,
    });
  });
});
