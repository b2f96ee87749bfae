/**
 * Issue 42, item 7: a presented record is stored without the relationships its type declares and that are
 * empty, and read back whole from the declaration: byte for byte the record presented, whatever it holds.
 */
import { describe, expect, it } from 'vitest';
import {
  type RelationshipShape,
  withEmptyRelationships,
  withoutEmptyRelationships,
} from '#shared/data/empty-relationships';

const SHAPE: RelationshipShape = { model: 'one', owner: 'one', tags: 'many', sites: 'many', vehicle: 'one' };

const presented = {
  type: 'equipment-items',
  id: 'e1',
  attributes: { serial: 'BW-1' },
  meta: { version: 1 },
  relationships: {
    model: { data: null },
    owner: { data: { type: 'users', id: 'u1' } },
    tags: { data: [] },
    sites: { data: [{ type: 'sites', id: 's1' }] },
    vehicle: { data: { type: 'vehicles', id: 'v1', meta: { starts_at: '2026-01-01' } } },
  },
};

describe('a record stored without its empty relationships reads back as presented', () => {
  it('the declared empties (to one: data null, to many: data []) are left out, nothing else', () => {
    const stored = withoutEmptyRelationships(SHAPE, presented);
    expect(Object.keys(stored.relationships)).toEqual(['owner', 'sites', 'vehicle']);
    expect(JSON.stringify(withEmptyRelationships(SHAPE, stored))).toBe(JSON.stringify(presented));
  });

  it('a record stored with its empties (before this) reads the same', () => {
    expect(JSON.stringify(withEmptyRelationships(SHAPE, presented))).toBe(JSON.stringify(presented));
  });

  it('what is not the declared empty is kept: a to-one stored as a list, meta beside data, undeclared names', () => {
    const odd = {
      relationships: {
        model: { data: [] },
        owner: { data: null, meta: { reason: 'left' } },
        tags: { data: [] },
        former: { data: null },
      },
    };
    const stored = withoutEmptyRelationships(SHAPE, odd);
    expect(stored.relationships).toEqual({
      model: { data: [] },
      owner: { data: null, meta: { reason: 'left' } },
      former: { data: null },
    });
    expect(withEmptyRelationships(SHAPE, stored).relationships).toEqual({
      model: { data: [] },
      owner: { data: null, meta: { reason: 'left' } },
      tags: { data: [] },
      sites: { data: [] },
      vehicle: { data: null },
      former: { data: null },
    });
  });

  it('a record without relationships (a deletion’s identifier) is kept as it is', () => {
    const identifier = { type: 'equipment-items', id: 'e1' };
    expect(withoutEmptyRelationships(SHAPE, identifier)).toBe(identifier);
    expect(withEmptyRelationships(SHAPE, identifier)).toBe(identifier);
  });
});
