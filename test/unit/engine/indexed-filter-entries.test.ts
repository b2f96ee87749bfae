/**
 * An indexed filter's prefix pattern (`<field>#<value>#<id>`) owns the record's one entry on its index:
 * the declaration is refused when a sort or another filter needs the same index, and the stored form keeps
 * the entry with the value and drops it with it (a sparse index), on `gsi1`, `gsi2` or a local index.
 */
import { describe, expect, it } from 'vitest';
import { newUserRecord } from '#functions/people/joining';
import { users } from '#functions/people/users';
import { houseCollection } from '#shared/engine/house-defaults';
import { typeKeys } from '#shared/engine/keys';
import { indexed } from '#shared/engine/stored';

const prefixed = (index: 'gsi1' | 'gsi2' | 'lsi1' | 'lsi2', field: string) => ({
  index,
  pk: 'ORG#{org_id}#things',
  sk: `${field}#{attributes.${field}}#{id}`,
});

const declared =
  (
    patterns: Record<string, ReturnType<typeof prefixed>>,
    sorts: Record<string, { path: string; index?: 'lsi1' | 'lsi2' }> = {},
  ) =>
  () =>
    typeKeys({
      type: 'indexed-filter-entries-things',
      keys: patterns,
      collection: houseCollection({
        filters: Object.fromEntries(
          Object.keys(patterns).map((name) => [
            name,
            { kind: 'eq', path: `attributes.${name}`, index: name },
          ]),
        ),
        sorts,
        defaultSort: 'created_at',
        includes: [],
      }),
    });

describe('a prefix pattern owns its index', () => {
  it('two filters on one index are refused, as are a filter and a sort on one local index', () => {
    expect(declared({ colour: prefixed('gsi2', 'colour'), size: prefixed('gsi2', 'size') })).toThrow(
      'indexed-filter-entries-things: filter size and filter colour both need gsi2',
    );
    expect(
      declared({ colour: prefixed('lsi1', 'colour') }, { name: { path: 'attributes.name', index: 'lsi1' } }),
    ).toThrow('indexed-filter-entries-things: filter colour and sort name both need lsi1');
  });

  it('filters on different indexes are declared', () => {
    expect(declared({ colour: prefixed('gsi1', 'colour'), size: prefixed('gsi2', 'size') })).not.toThrow();
  });
});

describe('the stored form keeps a filter’s entry with its value', () => {
  const user = (jobRole: string | null) =>
    newUserRecord('org-1', '019c0000-0000-7000-8000-000000000001', new Date(0), {
      email: 'a@example.com',
      first: 'A',
      last: 'B',
      jobRole,
    });

  it('a user with a job role is filed under it on gsi2, and under their status on gsi1', () => {
    expect(user('role-1')).toMatchObject({
      gsi1pk: 'ORG#org-1#users',
      gsi1sk: 'status#active#019c0000-0000-7000-8000-000000000001',
      gsi2pk: 'ORG#org-1#users',
      gsi2sk: 'job_role#role-1#019c0000-0000-7000-8000-000000000001',
    });
  });

  it('one without (or whose job role is removed) has no gsi2 entry', () => {
    expect(user(null)).not.toHaveProperty('gsi2pk');
    const removed = indexed(users, { ...user('role-1'), rels: { ...user('role-1').rels, job_role: null } });
    expect(removed).not.toHaveProperty('gsi2pk');
    expect(removed).not.toHaveProperty('gsi2sk');
  });
});
