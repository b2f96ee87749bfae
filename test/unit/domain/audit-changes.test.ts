/** What an audit entry shows of a change: the members that changed, before and after (issue 18, item 7). */
import { describe, expect, it } from 'vitest';
import { changedMembers, memberNames } from '#shared/data/changed-members';

const vehicle = {
  type: 'vehicles',
  id: 'v1',
  attributes: { registration: 'NW24 ALC', name: 'Van 1', notes: null },
  relationships: {
    allocated_location: {
      data: { type: 'locations', id: 'l1', meta: { starts_at: '2026-12-01T07:00:00.000Z' } },
    },
    allocated_person: { data: null },
    equipment: { data: [{ type: 'equipment-items', id: 'e1' }] },
  },
  meta: { version: 3, updated_at: '2026-12-01T07:00:00.000Z' },
};

describe('the members an audit entry shows', () => {
  it('a creation shows every member after and nothing before; a deletion the reverse', () => {
    const members = { attributes: vehicle.attributes, relationships: vehicle.relationships };
    expect(changedMembers(null, vehicle)).toEqual({ before: null, after: members });
    expect(changedMembers(vehicle, null)).toEqual({ before: members, after: null });
  });

  it('an update shows only the attributes and relationships that changed, never meta', () => {
    const next = {
      ...vehicle,
      attributes: { ...vehicle.attributes, name: 'Van 2' },
      relationships: {
        ...vehicle.relationships,
        allocated_location: { data: null },
        allocated_person: { data: { type: 'users', id: 'u1' } },
      },
      meta: { version: 4, updated_at: '2026-12-02T07:00:00.000Z' },
    };
    expect(changedMembers(vehicle, next)).toEqual({
      before: {
        attributes: { name: 'Van 1' },
        relationships: {
          allocated_location: vehicle.relationships.allocated_location,
          allocated_person: { data: null },
        },
      },
      after: {
        attributes: { name: 'Van 2' },
        relationships: {
          allocated_location: { data: null },
          allocated_person: { data: { type: 'users', id: 'u1' } },
        },
      },
    });
  });

  it('a member added or removed shows as null on the side that lacks it; equal values in another key order are unchanged', () => {
    const reordered = {
      attributes: { notes: null, name: 'Van 1', registration: 'NW24 ALC', colour: 'white' },
      relationships: Object.fromEntries(Object.entries(vehicle.relationships).reverse()),
    };
    expect(changedMembers(vehicle, reordered)).toEqual({
      before: { attributes: { colour: null } },
      after: { attributes: { colour: 'white' } },
    });
  });

  it('a write that changed only meta shows no member', () => {
    const touched = { ...vehicle, meta: { version: 4 } };
    expect(changedMembers(vehicle, touched)).toEqual({ before: {}, after: {} });
  });

  it('names the changed members, for an entry too large to hold their values', () => {
    const { before, after } = changedMembers(vehicle, {
      ...vehicle,
      attributes: { ...vehicle.attributes, notes: 'x' },
      relationships: { ...vehicle.relationships, equipment: { data: [] } },
    });
    expect(memberNames(before)).toEqual(['attributes.notes', 'relationships.equipment']);
    expect(memberNames(after)).toEqual(memberNames(before));
    expect(memberNames(null)).toEqual([]);
  });
});
