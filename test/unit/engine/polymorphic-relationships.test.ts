/**
 * Polymorphic relationships (issue 41, item 3), the pure parts: what a declaration may say, how a stored
 * `<type>:<id>` is served, the request schema's `oneOf`, and the filters' parsing.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { relationshipSchema, storedRelationships } from '#shared/engine/record-writes';
import { identifiersOf } from '#shared/engine/relationship-targets';
import { defineResource, type RelationshipDefinition } from '#shared/engine/resource-definition';
import { toResourceObject } from '#shared/engine/serialise';
import { toStoredResource } from '#shared/engine/stored';
import { parseCollectionQuery } from '#shared/jsonapi/collection-query';
import { identifierSchema, resourceSchema } from '../../../infra/openapi/json-api';
import { assignee, testAssignments } from '../../support/polymorphic-type';

const ID = '0192d6a4-51a2-7c3e-9a55-2f1f3f6a0c11';

describe('declaring a polymorphic relationship', () => {
  it('a relationship naming a type twice is refused when declared', () => {
    expect(() =>
      defineResource({ type: 'test-twice', relationships: { subject: { types: ['users', 'users'] } } }),
    ).toThrow('test-twice.subject names a type twice: users, users');
  });

  it('one type, or many of several, does not compile: {types} is to-one and names two or more', () => {
    // @ts-expect-error one type is a plain relationship
    const one: RelationshipDefinition = { types: ['users'] };
    // @ts-expect-error a polymorphic relationship is to one
    const many: RelationshipDefinition = { types: ['users', 'teams'], many: true };
    expect([one, many]).toHaveLength(2);
  });
});

describe('stored as <type>:<id>, served as {type, id}', () => {
  const record = (rels: Record<string, string | null>) =>
    toStoredResource(testAssignments, { orgId: ID, id: ID, attributes: { title: 't' }, meta: {}, rels });

  it('a write stores the identifier as <type>:<id>; single-type links keep the bare id', () => {
    expect(storedRelationships({ assignee: { data: { type: 'teams', id: ID } } }, testAssignments)).toEqual({
      assignee: `teams:${ID}`,
    });
    expect(
      storedRelationships({ organisation: { data: { type: 'organisations', id: ID } } }, testAssignments),
    ).toEqual({
      organisation: ID,
    });
  });

  it('the answer carries relationships.assignee.data {type, id}; none is data: null', () => {
    expect(
      toResourceObject(testAssignments, record({ assignee: `job-roles:${ID}` }), '').relationships.assignee,
    ).toEqual({
      data: { type: 'job-roles', id: ID },
    });
    expect(toResourceObject(testAssignments, record({ assignee: null }), '').relationships.assignee).toEqual({
      data: null,
    });
  });

  it('a stored value naming a type the relationship does not (or no type) names no record', () => {
    expect(identifiersOf(assignee, `vehicles:${ID}`)).toEqual([]);
    expect(identifiersOf(assignee, ID)).toEqual([]);
    expect(identifiersOf({ type: 'users' }, ID)).toEqual([{ type: 'users', id: ID }]);
  });
});

describe('the request schema takes an identifier of one of the types', () => {
  const schema = relationshipSchema(testAssignments, 'assignee');

  it('each declared type parses; another type is refused at data.type', () => {
    for (const type of assignee.types)
      expect(schema.safeParse({ data: { type, id: ID } }).success).toBe(true);
    const refused = schema.safeParse({ data: { type: 'vehicles', id: ID } });
    expect(refused.error?.issues[0]?.path).toEqual(['data', 'type']);
  });
});

describe('filters on a polymorphic relationship', () => {
  const options = testAssignments.collection;
  if (!options) throw new Error('declared with a collection');
  const parse = (query: Record<string, string>) => parseCollectionQuery(query, options).filters;

  it('filter[assignee]=<type>:<id> is equality on the stored value; filter[assignee.type] its prefix', () => {
    expect(parse({ 'filter[assignee]': `teams:${ID}` })).toEqual([
      { field: 'assignee', path: 'rels.assignee', op: 'eq', value: `teams:${ID}` },
    ]);
    expect(parse({ 'filter[assignee.type]': 'users' })).toEqual([
      { field: 'assignee.type', path: 'rels.assignee', op: 'begins', value: 'users:' },
    ]);
  });

  it('an undeclared type, a bare id or a malformed id is a 400 naming the parameter', () => {
    for (const [name, value] of [
      ['filter[assignee]', `vehicles:${ID}`],
      ['filter[assignee]', ID],
      ['filter[assignee]', 'users:x'],
      ['filter[assignee.type]', 'vehicles'],
    ] as const) {
      expect(() => parse({ [name]: value }), value).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});

describe('the OpenAPI document describes it as a oneOf of the identifier types', () => {
  it('answers: relationships.assignee.data is one of {type: users|teams|job-roles, id} or null', () => {
    const schema = resourceSchema({
      type: 'test-assignments',
      attributes: {},
      relationships: testAssignments.relationships,
      linked: true,
    });
    // biome-ignore lint/suspicious/noExplicitAny: walking a generated schema
    const data = (schema as any).properties.relationships.properties.assignee.properties.data;
    expect(data).toEqual({
      oneOf: [{ oneOf: assignee.types.map((type) => identifierSchema([type])) }, { type: 'null' }],
    });
  });

  it('request bodies: the schema the write parses with converts to a oneOf told apart by type', () => {
    const json = z.toJSONSchema(relationshipSchema(testAssignments, 'assignee')) as unknown as {
      properties: { data: { anyOf: [{ oneOf: { properties: { type: { const: string } } }[] }, unknown] } };
    };
    const [oneOf] = json.properties.data.anyOf;
    expect(oneOf.oneOf.map((s) => s.properties.type.const)).toEqual([...assignee.types]);
  });
});
