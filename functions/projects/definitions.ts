/**
 * The work hierarchy: scheme contracts (regions) contain schemes, schemes contain work orders, work
 * orders contain operations. Every node is also filed in its tree on `gsi1` (`TREE#<org>#<root id>`,
 * sort key = the path of ids from the root), so a subtree is one `begins_with` Query.
 */

import type { StoredResource } from '#shared/data/stored-resource';
import { deletedKey, deletedPattern } from '#shared/data/trees';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';
import { progressKey } from './progress-keys';

/**
 * Schemes' progress (`progress.ts`, read with each scheme) and a restore's writes (`restoring.ts`) load when
 * first used: every function reads these declarations, few read a scheme or restore a node.
 */
const progress = () => import('./progress');
const restoring = () => import('./restoring');
const parentFilter = () => import('./parent-filter');

const NODE_STATES = ['in_place', 'deleted'] as const;

/**
 * A node's one move, `restore` (deleted → in_place). Deleting parks a node in its organisation's deleted
 * partition, out of its collection and its tree (`hierarchy.ts`): its state is where it is kept, not an
 * attribute (`status` is the work's own, PATCHed freely). The move's route reads it there (`parked`), and
 * its writes file it in its tree again and move its scheme's counts back. `noun` names a node of `type` in
 * its reasons ("A scheme in place cannot be restored.").
 */
const restorable = (type: string, noun: string) =>
  defineLifecycle({
    state: () => 'in_place',
    parked: { state: 'deleted', keyOf: (orgId, id) => deletedKey(orgId, type, id) },
    states: NODE_STATES,
    noun,
    transitions: {
      restore: {
        from: ['deleted'],
        to: 'in_place',
        event: 'restored',
        writes: async (moved) => (await restoring()).nodeRestored(moved),
      },
    },
  });

/** The scheme meta the spec shows that this service does not vary (no templates, imports or schedules yet). */
const fixedMeta = (scheme: StoredResource): StoredResource => ({
  ...scheme,
  meta: {
    ...scheme.meta,
    modified_at: scheme.meta.updated_at,
    from_template: false,
    is_default: false,
    imported_at: null,
    dates: { scheduled: { start: null, end: null } },
  },
});

/**
 * The filters every node of the work hierarchy and every scheme contract shares, each index-backed (an
 * organisation holds thousands of schemes and tens of thousands of work orders and operations; contracts
 * grow by a few hundred a year): name and code through their sort indexes, a creation window as a range of
 * the UUIDv7 ids. None needs an index entry its sorts do not already write.
 */
const named = {
  filters: {
    name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
    code: { kind: 'eq', path: 'attributes.code', index: 'sort-code' },
    created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
  },
  sorts: {
    name: { path: 'attributes.name', index: 'lsi1' },
    code: { path: 'attributes.code', index: 'lsi2' },
  },
  defaultSort: 'name',
} as const;

/**
 * A node's filters: the shared ones, and status through its entry on `gsi2` (the record's `gsi1` entry is
 * its tree's), counted. A parent filter reads what lies under the parent (`parent-filter.ts`): a scheme's
 * work orders as its progress lists them, a work order's subtree on that tree index.
 */
const indexedFilters = {
  ...named.filters,
  status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
} as const;

/** A node type's keys: where it is parked when deleted, and its status entry on `gsi2`. */
const nodeKeys = <Type extends string>(type: Type, noun: string) =>
  ({
    deleted: deletedPattern(type),
    'filter-status': {
      index: 'gsi2',
      pk: `ORG#{org_id}#${type}`,
      sk: 'status#{attributes.status}#{id}',
      about: `${noun} under its status, in creation order: \`filter[status]\`; those written before issue 42 lack it until migrated`,
    },
  }) as const;

// What every node of the work hierarchy serves; the writes are hierarchy.ts's.
const nodeAttributes = ({ z }: SchemaBuilders) => ({
  name: z.string(),
  code: z.string().optional(),
  description: z.string().optional(),
});
const WORK_STATUSES = ['todo', 'in_progress', 'done'] as const;

export const schemeContracts = defineResource({
  type: 'scheme-contracts',
  keys: { deleted: deletedPattern('scheme-contracts') },
  lifecycle: restorable('scheme-contracts', 'scheme contract'),
  tag: 'Scheme Contracts',
  names: { one: 'SchemeContract', many: 'SchemeContracts' },
  collectionPath: '/v3/orgs/{org_id}/projects/scheme-contracts',
  itemPath: '/v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}',
  permission: 'projects',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/projects/scheme-contracts/create.ts',
    update: 'functions/projects/scheme-contracts/update.ts',
    delete: 'functions/projects/scheme-contracts/delete.ts',
  },
  served: async () => nodeAttributes(await loadSchemaBuilders()),
  collection: { ...named, includes: [] },
});

export const schemes = defineResource({
  type: 'schemes',
  keys: nodeKeys('schemes', 'a scheme'),
  lifecycle: restorable('schemes', 'scheme'),
  names: { one: 'Scheme', many: 'Schemes' },
  collectionPath: '/v3/orgs/{org_id}/projects/schemes',
  itemPath: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}',
  permission: 'projects',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/projects/schemes/create.ts',
    update: 'functions/projects/schemes/update.ts',
    delete: 'functions/projects/schemes/delete.ts',
  },
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z, instant } = builders;
    const anticipated = instant().nullable().optional();
    return {
      ...nodeAttributes(builders),
      status: z.literal('in_planning'),
      dates: z
        .strictObject({ anticipated: z.strictObject({ start: anticipated, end: anticipated }).optional() })
        .optional(),
      labels: z.array(z.strictObject({ key: z.string(), value: z.string() })).optional(),
    };
  },
  relationships: {
    scheme_template: { type: 'scheme-templates' },
    template: { type: 'scheme-templates' },
    work_orders: { type: 'work-orders', many: true },
    site_managers: { type: 'users', many: true },
    assignees: { type: 'users', many: true },
    teams: { type: 'teams', many: true },
    folder: { type: 'folders' },
    contracts: { type: 'scheme-contracts', many: true },
    locations: { type: 'locations', many: true },
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  derive: async (scope, items) => (await progress()).withProgress(scope, items.map(fixedMeta)),
  derivedKeys: (orgId, id) => [progressKey(orgId, id)],
  collection: {
    ...named,
    filters: indexedFilters,
    includes: ['contracts', 'site_managers', 'assignees', 'teams', 'locations'],
  },
});

export const workOrders = defineResource({
  type: 'work-orders',
  keys: nodeKeys('work-orders', 'a work order'),
  lifecycle: restorable('work-orders', 'work order'),
  tag: 'Work Orders',
  names: { one: 'WorkOrder', many: 'WorkOrders' },
  collectionPath: '/v3/orgs/{org_id}/projects/work-orders',
  itemPath: '/v3/orgs/{org_id}/projects/work-orders/{work_order_id}',
  permission: 'projects',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/projects/work-orders/create.ts',
    update: 'functions/projects/work-orders/update.ts',
    delete: 'functions/projects/work-orders/delete.ts',
  },
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return { ...nodeAttributes(builders), status: z.enum(WORK_STATUSES) };
  },
  relationships: { scheme: { type: 'schemes' } },
  readSubtree: async (scope, orgId, query) =>
    (await parentFilter()).readSchemeWorkOrders(scope, orgId, query),
  collection: {
    ...named,
    filters: { ...indexedFilters, scheme: { kind: 'eq', path: 'rels.scheme', subtree: true } },
    includes: ['scheme'],
  },
});

export const operations = defineResource({
  type: 'operations',
  keys: nodeKeys('operations', 'an operation'),
  lifecycle: restorable('operations', 'operation'),
  tag: 'Operations',
  names: { one: 'Operation', many: 'Operations' },
  collectionPath: '/v3/orgs/{org_id}/projects/operations',
  itemPath: '/v3/orgs/{org_id}/projects/operations/{operation_id}',
  permission: 'projects',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/projects/operations/create.ts',
    update: 'functions/projects/operations/update.ts',
    delete: 'functions/projects/operations/delete.ts',
  },
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return {
      ...nodeAttributes(builders),
      status: z.enum(WORK_STATUSES),
      done_reason: z.enum(['completed', 'aborted', 'cancelled']).nullable().optional(),
    };
  },
  relationships: { work_order: { type: 'work-orders' } },
  readSubtree: async (scope, orgId, query) =>
    (await parentFilter()).readUnderParent(scope, orgId, query, {
      type: 'operations',
      filter: 'work_order',
      parent: workOrders,
    }),
  collection: {
    ...named,
    filters: { ...indexedFilters, work_order: { kind: 'eq', path: 'rels.work_order', subtree: true } },
    includes: ['work_order', 'work_order.scheme'],
  },
});
