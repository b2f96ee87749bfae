/**
 * The cost register and cost sheets. Rate codes are time-versioned; cost sheets sit on a node of the
 * work hierarchy; cost lines on a sheet keep a snapshot of the rate they were written at. Sheets and
 * lines are also filed in the hierarchy's tree index, after their node's path, so a subtree's costs are
 * read with the same `begins_with` Query as its nodes.
 */
import { createdAtSort, defineResource } from '../resource-definition';

export const rateCodes = defineResource({
  type: 'rate-codes',
  relationships: { organisation: { type: 'organisations' } },
  self: 'getRateCode',
  collection: {
    filters: {
      code: { kind: 'eq', path: 'attributes.code' },
      category: { kind: 'eq', path: 'attributes.category' },
    },
    sorts: {
      code: { path: 'attributes.code', index: 'lsi1' },
      name: { path: 'attributes.name', index: 'lsi2' },
      ...createdAtSort,
    },
    defaultSort: 'code',
    includes: [],
  },
});

/** The four node relationships of a cost sheet; exactly one is set. */
export const costCentreRelationships = {
  scheme_contract: { type: 'scheme-contracts' },
  scheme: { type: 'schemes' },
  work_order: { type: 'work-orders' },
  operation: { type: 'operations' },
} as const;

export const costSheets = defineResource({
  type: 'cost-sheets',
  relationships: { organisation: { type: 'organisations' }, ...costCentreRelationships },
  self: 'getCostSheet',
  collection: {
    filters: { status: { kind: 'eq', path: 'attributes.status' } },
    sorts: { ...createdAtSort },
    defaultSort: 'created_at',
    includes: [],
  },
});

export const costLines = defineResource({
  type: 'cost-lines',
  relationships: {
    organisation: { type: 'organisations' },
    cost_sheet: { type: 'cost-sheets' },
    rate_code: { type: 'rate-codes' },
  },
  self: 'getCostLine',
  collection: {
    filters: {
      kind: { kind: 'eq', path: 'attributes.kind' },
      cost_sheet: { kind: 'eq', path: 'rels.cost_sheet' },
    },
    sorts: { ...createdAtSort },
    defaultSort: 'created_at',
    includes: ['rate_code', 'cost_sheet'],
  },
});
