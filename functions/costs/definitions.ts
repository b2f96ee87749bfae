/**
 * The cost register and cost sheets. Rate codes are time-versioned; cost sheets sit on a node of the
 * work hierarchy; cost lines on a sheet keep a snapshot of the rate they were written at. Sheets and
 * lines add to what their node keeps (node-totals.ts), so a roll-up reads the subtree's nodes alone
 * (those written before were filed in the tree index until migration 14 folded them).
 */
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import { defineLifecycle, type MoveWrites, type PartyRule } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { costCentreRelationships } from './rules/cost-centres';
import { type Bucket, CATEGORIES, SHEET_STATUSES } from './rules/roll-up';
import { COST_CENTRE_TYPES } from './rules/roll-up-filter';
import { approverRefusal } from './rules/sheets';

export const rateCodes = defineResource({
  type: 'rate-codes',
  events: ['version-added'],
  names: { one: 'RateCode', many: 'RateCodes' },
  collectionPath: '/v3/orgs/{org_id}/costs/rate-codes',
  itemPath: '/v3/orgs/{org_id}/costs/rate-codes/{rate_code_id}',
  permission: 'costs',
  endpoints: { list: true, get: true, create: true },
  writes: async () => {
    const { z, line, requiredLine } = await loadSchemaBuilders();
    return {
      attributes: {
        code: requiredLine(50),
        name: requiredLine(200),
        category: z.enum(CATEGORIES),
        unit: line(20).optional(),
      },
      unique: { attribute: 'code', claim: 'code-claim' },
    };
  },
  keys: {
    'code-claim': {
      ...tenantPattern('rate-code-codes', '{code}'),
      about: '`holder_id`; read by `filter[code]`',
    },
    // On gsi2: lsi1 and lsi2 keep the code and name sorts.
    'filter-category': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#rate-codes',
      sk: 'category#{attributes.category}#{attributes.code:folded}\u0001{id}',
      about:
        "a rate code under its category, in code order (the list's default sort): `filter[category]`; rate codes written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Both filters indexed: code (unique) by its claim, category (four values, counted) on gsi2.
    filters: {
      created_at: false,
      code: { kind: 'eq', path: 'attributes.code', index: 'code-claim', claimed: true },
      category: { kind: 'eq', path: 'attributes.category', index: 'filter-category', counted: true },
    },
    sorts: {
      code: { path: 'attributes.code', index: 'lsi1' },
      name: { path: 'attributes.name', index: 'lsi2' },
    },
    defaultSort: 'code',
    includes: [],
  },
});

/** Four eyes (`rules/sheets.ts`): whoever made the sheet never approves it. */
const notTheCreator: PartyRule = (sheet, principal) =>
  approverRefusal(
    ((sheet.rels.created_by_user ?? sheet.rels.created_by_service_account) as string | null | undefined) ??
      null,
    principal.id,
  );

/** What a sheet's moves write (its node's totals) loads when one is made: every function reads this. */
const nodeTotals = () => import('./node-totals');

/** A move of the sheet's status moves its actual lines' sums to the new status's bucket of its node. */
const sheetMoved = async (moved: StoredResource, before: StoredResource): Promise<MoveWrites> => ({
  ops: (await nodeTotals()).sheetStatusMoved(
    before,
    before.attributes.status as Bucket,
    moved.attributes.status as Bucket,
  ),
});

export const costSheets = defineResource({
  type: 'cost-sheets',
  names: { one: 'CostSheet', many: 'CostSheets' },
  collectionPath: '/v3/orgs/{org_id}/costs/cost-sheets',
  itemPath: '/v3/orgs/{org_id}/costs/cost-sheets/{cost_sheet_id}',
  permission: 'costs',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/costs/create-cost-sheet.ts',
    update: 'functions/costs/update-cost-sheet.ts',
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { name: z.string(), status: z.enum(SHEET_STATUSES) };
  },
  relationships: {
    ...costCentreRelationships,
    // Who made it, for four eyes on its approval; none on sheets made before it was recorded.
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  keys: {
    'filter-status': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#cost-sheets',
      sk: 'status#{attributes.status}#{id}',
      about:
        'a sheet under its status, in creation order, in its own partition (no sort uses `lsi1`): `filter[status]`; sheets written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // A sheet per operation grows with the sites: its one filter is indexed, and counted (three statuses).
    filters: {
      created_at: false,
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
    },
    defaultSort: 'created_at',
    includes: [],
  },
  // A quote is approved, the work completed; a completed sheet reopens, an approved one goes back to quote.
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: SHEET_STATUSES,
    noun: 'cost sheet',
    transitions: {
      approve: {
        from: ['quoted'],
        to: 'approved',
        event: 'approved',
        parties: [notTheCreator],
        writes: sheetMoved,
      },
      complete: { from: ['approved'], to: 'completed', event: 'completed', writes: sheetMoved },
      reopen: { from: ['completed'], to: 'approved', event: 'reopened', writes: sheetMoved },
      requote: { from: ['approved'], to: 'quoted', event: 'requoted', writes: sheetMoved },
    },
  }),
});

export const costLines = defineResource({
  type: 'cost-lines',
  names: { one: 'CostLine', many: 'CostLines' },
  collectionPath: '/v3/orgs/{org_id}/costs/cost-lines',
  itemPath: '/v3/orgs/{org_id}/costs/cost-lines/{cost_line_id}',
  permission: 'cost-lines',
  endpoints: { list: true, get: true },
  served: async () => {
    const { z, instant, money } = await loadSchemaBuilders();
    return {
      kind: z.enum(['actual', 'estimate']),
      description: z.string().optional(),
      quantity: z.number(),
      at: instant().describe('When the work was done: the rate in force then was used.'),
      snapshot: z
        .strictObject({
          rate_code: z.string(),
          rate_version: z.string(),
          category: z.enum(CATEGORIES),
          currency: z.string(),
          unit_cost: z.number().int(),
          unit_charge: z.number().int(),
        })
        .describe('The rate the line was written at.'),
      cost: money(),
      charge: money(),
    };
  },
  relationships: {
    cost_sheet: { type: 'cost-sheets' },
    rate_code: { type: 'rate-codes' },
  },
  keys: {
    'filter-kind': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#cost-lines',
      sk: 'kind#{attributes.kind}#{id}',
      about:
        'a line under its kind, in creation order, in its own partition (no sort uses `lsi1`): `filter[kind]`; lines written before issue 42 lack it until migrated',
    },
    'filter-cost-sheet': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#cost-lines',
      sk: 'cost_sheet#{rels.cost_sheet}#{id}',
      about:
        'a line under its sheet, in creation order, in its own partition (no sort uses `lsi2`): `filter[cost_sheet]`; lines written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Two thousand lines a site a year: both filters are indexed; `kind` (two values) is counted.
    filters: {
      created_at: false,
      kind: { kind: 'eq', path: 'attributes.kind', index: 'filter-kind', counted: true },
      cost_sheet: { kind: 'eq', path: 'rels.cost_sheet', index: 'filter-cost-sheet' },
    },
    defaultSort: 'created_at',
    includes: ['rate_code', 'cost_sheet'],
  },
});

/** A rate code's version (`/versions`): its rate, in force from `valid_from` until `valid_to` (null: open). */
export const rateCodeVersionAttributes = async () => {
  const { instant, money } = await loadSchemaBuilders();
  return { valid_from: instant(), valid_to: instant().nullable(), cost: money(), charge: money() };
};

/** A node of the work hierarchy with its cost totals (`/v3/cost-rollups`, domain/costs/roll-up.ts). */
export const costRollupAttributes = async () => {
  const { z, money } = await loadSchemaBuilders();
  const totals = () =>
    z.strictObject({
      cost: money(),
      charge: money(),
      profit: money(),
      categories: z.strictObject(Object.fromEntries(CATEGORIES.map((category) => [category, money()]))),
    });
  return {
    cost_centre_id: z.string(),
    cost_centre_type: z.enum(COST_CENTRE_TYPES),
    parent_cost_centre_id: z.string().nullable(),
    parent_cost_centre_type: z.enum(COST_CENTRE_TYPES).nullable(),
    name: z.string().nullable(),
    code: z.string().nullable(),
    has_cost_sheet: z.boolean(),
    direct: totals(),
    rolled: totals(),
    by_status: z.strictObject(Object.fromEntries(SHEET_STATUSES.map((status) => [status, totals()]))),
    estimated: z.strictObject({ direct: totals(), rolled: totals() }),
  };
};
