/**
 * Create/update/delete for record types with no rules beyond their schema and the existence of what
 * they name (manufacturers, categories, models, vehicle specifications, …): one declaration per type.
 */
import * as z from 'zod';
import type { Principal } from '../auth/principal';
import { keyFrom } from '../data/access-patterns';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import type { WriteOp, WriteRefused } from '../data/transaction';
import { ConflictError } from '../jsonapi/errors';
import { assertSameId, parseDocument } from '../jsonapi/request-document';
import type { ResourceDefinition, UniqueAttribute, WriteMoment, WriteMoments } from './declaration';
import {
  changedRecord,
  createRecord,
  deleteRecord,
  newRecord,
  relationshipSchema,
  replaceRecord,
  storedRelationships,
} from './record-writes';
import { indexed } from './stored';

export type { UniqueAttribute, WriteMoments } from './declaration';

export interface SimpleCrud {
  definition: ResourceDefinition;
  /** The request documents `create` and `update` parse: the OpenAPI document shows these very schemas. */
  documents: { create: z.ZodType; update: z.ZodType };
  /** `principal` is the caller, for records that name their author. */
  create(scope: Scope, orgId: string, body: unknown, principal?: Principal | null): Promise<StoredResource>;
  update(scope: Scope, record: StoredResource, body: unknown): Promise<StoredResource>;
  remove(scope: Scope, record: StoredResource): Promise<void>;
}

const claimOps = (
  definition: ResourceDefinition,
  unique: UniqueAttribute | undefined,
  before: StoredResource | null,
  after: StoredResource | null,
): WriteOp[] => {
  if (!unique) return [];
  const value = (r: StoredResource | null) => (r ? r.attributes[unique.attribute] : undefined);
  const [was, is] = [value(before), value(after)];
  if (was === is) return [];
  const claim = (orgId: string, value: string) =>
    keyFrom(claimPattern(definition, unique), { org_id: orgId, [unique.attribute]: value });
  return [
    ...(typeof was === 'string' && before ? [{ remove: claim(before.org_id, was) }] : []),
    ...(typeof is === 'string' && after
      ? [{ claim: { ...claim(after.org_id, is), holder_id: after.id } }]
      : []),
  ];
};

/** The key pattern a unique attribute's claim is filed by, which the declaration names among its `keys`. */
const claimPattern = (definition: ResourceDefinition, unique: UniqueAttribute) => {
  const pattern = definition.keys[unique.claim];
  if (!pattern)
    throw new Error(
      `${definition.type} claims its ${unique.attribute} by ${unique.claim}, a key it does not declare`,
    );
  return pattern;
};

const takenValue =
  (unique: UniqueAttribute | undefined, extra: WriteOp[]) =>
  (error: WriteRefused): never => {
    const op = error.op === undefined ? undefined : extra[error.op - 1];
    if (unique && op && 'claim' in op) {
      throw new ConflictError(`Another record in this organisation has this ${unique.attribute}.`, {
        pointer: `/data/attributes/${unique.attribute}`,
      });
    }
    throw new ConflictError('The record changed while this request was applied; read it again and retry.');
  };

/**
 * The request documents of a create and an update: `required` attributes must be sent on create; every
 * attribute is optional on update.
 */
const writeDocuments = (
  definition: ResourceDefinition,
  attributes: z.ZodRawShape,
  relationshipNames: readonly string[],
) => {
  const relationships = z
    .strictObject(
      Object.fromEntries(
        relationshipNames.map((name) => [name, relationshipSchema(definition, name).optional()]),
      ),
    )
    .optional();
  const create = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      attributes: z.strictObject(attributes),
      relationships,
    }),
  });
  const update = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      id: z.uuid(),
      attributes: z.strictObject(attributes).partial().optional(),
      relationships,
    }),
  });
  return { create, update };
};

/**
 * A declared type's create, update and delete: its schema, its claims and its moments (`prepare` on the
 * record to write, `keep` on what other records keep of it, `guardDelete` before it goes).
 */
export const simpleCrud = (
  definition: ResourceDefinition,
  attributes: z.ZodRawShape,
  relationshipNames: readonly string[],
  unique?: UniqueAttribute,
  moments: WriteMoments = {},
): SimpleCrud => {
  /** The record as `prepare` answers it, keyed again: the id it derives is where the record lives. */
  const prepared = (draft: StoredResource, moment: WriteMoment): StoredResource => {
    const record = moments.prepare?.(draft, moment) ?? draft;
    return record === draft
      ? draft
      : indexed(definition, { ...record, ...definition.keyOf(record.org_id, record.id) });
  };
  const keep = async (scope: Scope, before: StoredResource | null, after: StoredResource | null) =>
    (await moments.keep?.(before, after, scope)) ?? {};
  const { create: createDocument, update: updateDocument } = writeDocuments(
    definition,
    attributes,
    relationshipNames,
  );
  return {
    definition,
    documents: { create: createDocument, update: updateDocument },
    create: async (scope, orgId, body, principal = null) => {
      const { data } = parseDocument(createDocument, body);
      const rels = storedRelationships(data.relationships as never, definition);
      const draft = newRecord(definition, orgId, { attributes: data.attributes, rels });
      const record = prepared(draft, { before: null, principal });
      const kept = await keep(scope, null, record);
      const claims = [...claimOps(definition, unique, null, record), ...(kept.ops ?? [])];
      // Its own key taken where `prepare` derived its id: there is one already (a site's settings).
      const taken = (error: WriteRefused): never => {
        if (error.op === 0 && record.id !== draft.id)
          throw new ConflictError(`There is one already (${record.id}): change it instead.`);
        return takenValue(unique, claims)(error);
      };
      return createRecord(scope, definition, record, claims, taken, record.rels, kept.checks);
    },
    update: async (scope, record, body) => {
      const { data } = parseDocument(updateDocument, body);
      assertSameId(data.id, record.id);
      const rels = storedRelationships(data.relationships as never, definition);
      const draft = changedRecord(definition, record, { attributes: data.attributes ?? {}, rels });
      const next = prepared(draft, { before: record, principal: null });
      const kept = await keep(scope, record, next);
      const extra = [...claimOps(definition, unique, record, next), ...(kept.ops ?? [])];
      return replaceRecord(
        scope,
        definition,
        { replace: next, was: record },
        rels,
        extra,
        takenValue(unique, extra),
        kept.checks,
      );
    },
    remove: async (scope, record) => {
      const guard = moments.guardDelete?.(record);
      if (guard) throw new ConflictError(guard);
      const kept = await keep(scope, record, null);
      await deleteRecord(
        scope,
        record,
        [...claimOps(definition, unique, record, null), ...(kept.ops ?? [])],
        kept.checks,
      );
    },
  };
};

/** The create/update/delete a declaration's `writes` describe: what its generic endpoints apply. */
export const declaredCrud = async (definition: ResourceDefinition): Promise<SimpleCrud> => {
  const writes = await definition.writes?.();
  if (!writes) throw new Error(`${definition.type} declares no writes`);
  return simpleCrud(definition, writes.attributes, writes.relationships ?? [], writes.unique, writes);
};
