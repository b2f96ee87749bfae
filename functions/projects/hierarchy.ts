/**
 * Writes to the work hierarchy. A node names its parent at creation (a scheme its first contract, a work
 * order its scheme, an operation its work order) and keeps it: its tree path is fixed then. Deleting is
 * soft: the node moves out of its collection and out of the tree index (so lists and roll-ups skip it
 * and everything beneath it) into a deleted partition, from which it can be restored.
 */
import * as z from 'zod';
import { getInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteRefused } from '#shared/data/transaction';
import { deletedKey, treeKeys } from '#shared/data/trees';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  createRecord,
  newRecord,
  relationshipSchema,
  replaceRecord,
  storedRelationships,
} from '#shared/engine/record-writes';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import type { SimpleCrud } from '#shared/engine/simple-crud';
import { freeText, line, requiredLine, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { operations, schemeContracts, schemes, workOrders } from './definitions';
import { progressMoves } from './progress';

const name = z.lazy(() => requiredLine(200));
const code = z.lazy(() => line(50).trim().optional());
const description = z.lazy(() => freeText(5000).optional());
const status = z.lazy(() => z.enum(['todo', 'in_progress', 'done']).optional());
const anticipated = timestamp.nullable().optional();

interface NodeKind {
  definition: ResourceDefinition;
  attributes: z.ZodRawShape;
  /** Relationships writable at creation; the first is the parent (absent for roots). */
  createRelationships: string[];
  /** Relationships that may change later. */
  updateRelationships: string[];
  parent?: { relationship: string; definition: ResourceDefinition };
  defaults?: Record<string, unknown>;
}

export const schemeAttributes = {
  name,
  code,
  description,
  dates: z
    .strictObject({ anticipated: z.strictObject({ start: anticipated, end: anticipated }).optional() })
    .optional(),
  labels: z
    .array(z.strictObject({ key: line(100).min(1), value: freeText(500) }))
    .max(50)
    .optional(),
};

const kinds: Record<string, NodeKind> = {
  'scheme-contracts': {
    definition: schemeContracts,
    attributes: { name, code, description },
    createRelationships: [],
    updateRelationships: [],
  },
  schemes: {
    definition: schemes,
    attributes: schemeAttributes,
    createRelationships: ['contracts', 'site_managers', 'assignees', 'teams', 'locations'],
    updateRelationships: ['site_managers', 'assignees', 'teams', 'locations'],
    parent: { relationship: 'contracts', definition: schemeContracts },
    defaults: { status: 'in_planning' },
  },
  'work-orders': {
    definition: workOrders,
    attributes: { name, code, description, status },
    createRelationships: ['scheme'],
    updateRelationships: [],
    parent: { relationship: 'scheme', definition: schemes },
    defaults: { status: 'todo' },
  },
  operations: {
    definition: operations,
    attributes: {
      name,
      code,
      description,
      status,
      done_reason: z.enum(['completed', 'aborted', 'cancelled']).nullable().optional(),
    },
    createRelationships: ['work_order'],
    updateRelationships: [],
    parent: { relationship: 'work_order', definition: workOrders },
    defaults: { status: 'todo' },
  },
};

const relationships = (definition: ResourceDefinition, names: string[]) =>
  z
    .strictObject(Object.fromEntries(names.map((n) => [n, relationshipSchema(definition, n).optional()])))
    .optional();

const parentOf = async (scope: Scope, kind: NodeKind, orgId: string, rels: Record<string, unknown>) => {
  if (!kind.parent) return null;
  const named = rels[kind.parent.relationship];
  const id = Array.isArray(named) ? named[0] : named;
  if (typeof id !== 'string') {
    if (kind.definition === schemes) return null;
    throw new ValidationError({
      detail: `${kind.parent.relationship} is required.`,
      source: { pointer: `/data/relationships/${kind.parent.relationship}` },
    });
  }
  const parent = await getInScope(scope, kind.parent.definition.keyOf, id);
  if (!parent || parent.org_id !== orgId || !parent.tree_path) {
    throw new ValidationError({
      detail: 'No such parent in this organisation.',
      source: { pointer: `/data/relationships/${kind.parent.relationship}/data` },
    });
  }
  return parent;
};

const refused = (error: WriteRefused): never => {
  throw error.code === 'stale' || error.code === 'exists'
    ? new ConflictError(
        'This record, or the work order or scheme above it, changed or was deleted while this request was applied; read them again (a deleted parent must be restored first).',
      )
    : error;
};

export const nodeCrud = (type: keyof typeof kinds & string): SimpleCrud => {
  const kind = kinds[type] as NodeKind;
  const { definition } = kind;
  const createDocument = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      attributes: z.strictObject(kind.attributes),
      relationships: relationships(definition, kind.createRelationships),
    }),
  });
  const updateDocument = z.strictObject({
    data: z.strictObject({
      type: z.literal(definition.type),
      id: z.uuid(),
      attributes: z.strictObject(kind.attributes).partial().optional(),
      relationships: relationships(definition, kind.updateRelationships),
    }),
  });
  return {
    definition,
    documents: { create: createDocument, update: updateDocument },
    create: async (scope, orgId, body, principal) => {
      const { data } = parseDocument(createDocument, body);
      const rels = storedRelationships(data.relationships as never);
      const parent = await parentOf(scope, kind, orgId, rels);
      const record = newRecord(definition, orgId, {
        attributes: { ...kind.defaults, ...data.attributes },
        rels: {
          ...rels,
          ...(definition === schemes && byPrincipal('created_by', principal)),
        },
      });
      const placed = {
        ...record,
        ...treeKeys(
          orgId,
          parent?.tree_root ?? record.id,
          parent ? `${parent.tree_path}/${record.id}` : record.id,
        ),
      };
      // The parent is checked in the transaction with every other named record.
      return createRecord(scope, definition, placed, await progressMoves('created', placed), refused, rels);
    },
    update: async (scope, record, body) => {
      const { data } = parseDocument(updateDocument, body);
      assertSameId(data.id, record.id);
      const rels = storedRelationships(data.relationships as never);
      const next = changedRecord(definition, record, { attributes: data.attributes ?? {}, rels });
      return replaceRecord(
        scope,
        definition,
        { replace: next, was: record },
        rels,
        await progressMoves('changed', next, record),
        refused,
      );
    },
    remove: async (scope, record) => {
      // Out of its tree and its status entry: a parked node is in no list until restored.
      const { gsi1pk: _pk, gsi1sk: _sk, gsi2pk: _statusPk, gsi2sk: _statusSk, ...rest } = record;
      const parked: StoredResource = {
        ...rest,
        ...deletedKey(record.org_id, record.type, record.id),
        meta: { ...record.meta, deleted_at: new Date().toISOString() },
      };
      await commitChecked(
        scope,
        [{ delete: record }, { put: parked }, ...(await progressMoves('deleted', record))],
        [],
        refused,
      );
    },
  };
};
