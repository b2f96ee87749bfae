/**
 * Create/update/delete for record types with no rules beyond their schema and the existence of what
 * they name (manufacturers, categories, models, vehicle specifications, …): one declaration per type.
 */
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import { assertSameId, parseDocument } from '../jsonapi/request-document';
import {
  changedRecord,
  createRecord,
  deleteRecord,
  newRecord,
  relationshipSchema,
  replaceRecord,
  storedRelationships,
} from './record-writes';
import type { ResourceDefinition } from './resource-definition';

export interface SimpleCrud {
  definition: ResourceDefinition;
  /** `principal` is the caller, for records that name their author. */
  create(scope: Scope, orgId: string, body: unknown, principal?: Principal | null): Promise<StoredResource>;
  update(scope: Scope, record: StoredResource, body: unknown): Promise<StoredResource>;
  remove(scope: Scope, record: StoredResource): Promise<void>;
}

/** `required` attributes must be sent on create; every attribute is optional on update. */
export const simpleCrud = (
  definition: ResourceDefinition,
  attributes: z.ZodRawShape,
  relationshipNames: readonly string[],
): SimpleCrud => {
  const relationships = z
    .strictObject(
      Object.fromEntries(
        relationshipNames.map((name) => [name, relationshipSchema(definition, name).optional()]),
      ),
    )
    .optional();
  const createDocument = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      attributes: z.strictObject(attributes),
      relationships,
    }),
  });
  const updateDocument = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      id: z.uuid(),
      attributes: z.strictObject(attributes).partial().optional(),
      relationships,
    }),
  });
  return {
    definition,
    create: (scope, orgId, body) => {
      const { data } = parseDocument(createDocument, body);
      const rels = storedRelationships(data.relationships as never);
      return createRecord(
        scope,
        definition,
        newRecord(definition, orgId, { attributes: data.attributes, rels }),
      );
    },
    update: (scope, record, body) => {
      const { data } = parseDocument(updateDocument, body);
      assertSameId(data.id, record.id);
      const rels = storedRelationships(data.relationships as never);
      return replaceRecord(
        scope,
        definition,
        changedRecord(definition, record, { attributes: data.attributes ?? {}, rels }),
        rels,
      );
    },
    remove: (scope, record) => deleteRecord(scope, record),
  };
};
