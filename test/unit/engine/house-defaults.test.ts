/**
 * The house defaults: a declaration states only what is its own, and the engine implies what every type
 * has unless it opts out (the `organisation` relationship, the `created_at` filter and sort). Proven on the
 * rule itself and on declared types, as the answers, `meta.features` and the OpenAPI document read them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { houseCollection, houseRelationships } from '#shared/engine/house-defaults';
import { declaredType } from '#shared/engine/resource-definition';

beforeAll(async () => {
  await import('#shared/routes');
}, 120_000);

const byName = { kind: 'eq', path: 'attributes.name' } as const;
const nameSort = { path: 'attributes.name', index: 'lsi1' } as const;

describe('a declaration states only its own; the engine implies the house defaults', () => {
  it('implies the organisation relationship first, and the created_at filter and sort last', () => {
    expect(Object.entries(houseRelationships({ team: { type: 'teams' } }))).toEqual([
      ['organisation', { type: 'organisations' }],
      ['team', { type: 'teams' }],
    ]);
    const collection = houseCollection({
      filters: { name: byName },
      sorts: { name: nameSort },
      defaultSort: 'name',
      includes: [],
    });
    expect(Object.entries(collection.filters)).toEqual([
      ['name', byName],
      ['created_at', { kind: 'time', path: 'meta.created_at' }],
    ]);
    expect(Object.entries(collection.sorts)).toEqual([
      ['name', nameSort],
      ['created_at', { path: 'meta.created_at' }],
    ]);
  });

  it('a declaration opts out with false, and a default it declares itself keeps its declared place', () => {
    expect(
      houseRelationships({ organisation: false, organisations: { type: 'organisations', many: true } }),
    ).toEqual({ organisations: { type: 'organisations', many: true } });
    const collection = houseCollection({
      filters: { created_at: false, name: byName },
      sorts: { created_at: { path: 'meta.created_at' }, name: nameSort },
      defaultSort: 'name',
      includes: [],
    });
    expect(Object.keys(collection.filters)).toEqual(['name']);
    expect(Object.keys(collection.sorts)).toEqual(['created_at', 'name']);
  });

  it('declared types carry them as before: job roles (none typed), teams (its own order), organisations and IAM permissions (opted out)', () => {
    const jobRoles = declaredType('job-roles');
    expect(Object.keys(jobRoles?.relationships ?? {})).toEqual(['organisation', 'required_specification']);
    expect(Object.keys(jobRoles?.collection?.filters ?? {})).toEqual(['name', 'code', 'created_at']);
    expect(Object.keys(jobRoles?.collection?.sorts ?? {})).toEqual(['name', 'created_at']);
    expect(Object.keys(declaredType('teams')?.collection?.filters ?? {})).toEqual([
      'name',
      'created_at',
      'updated_at',
    ]);
    expect(declaredType('organisations')?.relationships).toEqual({});
    expect(Object.keys(declaredType('iam-permissions')?.collection?.sorts ?? {})).toEqual(['name']);
  });
});
