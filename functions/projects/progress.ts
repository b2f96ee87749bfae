/**
 * Scheme progress as counters, so a page of schemes costs one BatchGetItem whatever is beneath them.
 * Each scheme and each work order has a progress item (`ORG#<org>#progress`, sort key its id) holding
 * operation counts by bucket; a scheme's item also holds the set of its live work orders. Every write
 * that changes what a scheme counts moves them in its own transaction:
 * - a work order created or restored joins its scheme, with its operations; deleted, it leaves with them;
 * - an operation created, restored, deleted or moved to another bucket moves its work order's and its
 *   scheme's counts, and requires both to be live: beneath a deleted work order or scheme nothing
 *   that counts can change until it is restored (409).
 * A work order leaving or rejoining checks its own counts are the ones it read, so an operation written
 * at the same moment cannot be lost from the scheme.
 */

import { compareCodePoints } from '#shared/data/collation';
import { getItem, readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { resourceKey, type StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { progressKey } from './progress-keys';
import {
  bucketOf,
  OPERATION_BUCKETS,
  type OperationBucket,
  type OperationFacts,
  schemeProgress,
} from './rules/scheme-progress';

interface Progress extends Partial<Record<OperationBucket, number>> {
  pk: string;
  sk: string;
  version?: number;
  work_order_ids?: Set<string>;
}

const negated = (progress: Progress | null) =>
  Object.fromEntries(OPERATION_BUCKETS.map((b) => [b, -(progress?.[b] ?? 0)]));

/** Schemes with their counts, completeness and work orders: one BatchGetItem per 100 schemes. */
export const withProgress = async (scope: Scope, items: StoredResource[]): Promise<StoredResource[]> => {
  const found = await readAheadOr<Progress>(
    scope,
    items.map((s) => progressKey(s.org_id, s.id)),
  );
  const byId = new Map(found.map((p) => [p.sk, p]));
  return items.map((scheme) => {
    const progress = byId.get(scheme.id);
    const workOrders = [...(progress?.work_order_ids ?? [])].sort();
    return {
      ...scheme,
      meta: { ...scheme.meta, ...schemeProgress(workOrders.length, progress ?? {}) },
      rels: { ...scheme.rels, work_orders: workOrders },
    };
  });
};

/**
 * The work orders a scheme lists, in id (creation) order: its live ones, joined and left in the
 * transactions that create, delete and restore them. Nothing for an id that is not a scheme here.
 */
export const listedWorkOrders = async (scope: Scope, orgId: string, schemeId: string): Promise<string[]> => {
  const [progress] = await readAheadOr<Progress>(scope, [progressKey(orgId, schemeId)]);
  return [...(progress?.work_order_ids ?? [])].sort(compareCodePoints);
};

/** The scheme and work order above an operation, from its tree path (…/scheme/work order/operation). */
const ancestorsOf = (operation: StoredResource) => {
  const [scheme = '', workOrder = ''] = (operation.tree_path ?? '').split('/').slice(-3, -1);
  return { scheme, workOrder };
};

/** What an operation's write does to the counts above it (`before`/`after` null when created/deleted). */
const operationMoves = (before: StoredResource | null, after: StoredResource | null): WriteOp[] => {
  const node = (after ?? before) as StoredResource;
  const was = before && bucketOf(before.attributes as OperationFacts);
  const is = after && bucketOf(after.attributes as OperationFacts);
  if (was === is) return [];
  const add: Record<string, number> = {};
  if (was) add[was] = -1;
  if (is) add[is] = 1;
  const { org_id: org } = node;
  const { scheme, workOrder } = ancestorsOf(node);
  return [
    { tally: { key: progressKey(org, workOrder), add: { ...add, version: 1 } } },
    { tally: { key: progressKey(org, scheme), add } },
    { check: resourceKey(org, 'work-orders', workOrder) },
    { check: resourceKey(org, 'schemes', scheme) },
  ];
};

/** A new work order joins its scheme with no operations; its own counts start at version 0. */
const workOrderCreated = (workOrder: StoredResource, schemeId: string): WriteOp[] => {
  const own: Progress = { ...progressKey(workOrder.org_id, workOrder.id), version: 0 };
  return [
    { tally: { key: progressKey(workOrder.org_id, schemeId), join: { work_order_ids: workOrder.id } } },
    { put: own },
  ];
};

/** A work order leaving (deleted) or rejoining (restored) its live scheme, with its operations. */
const workOrderMoves = async (workOrder: StoredResource, joining: boolean): Promise<WriteOp[]> => {
  const { org_id: org, id } = workOrder;
  const scheme = String(workOrder.rels.scheme);
  const own = await getItem<Progress>(progressKey(org, id), true);
  const leaving = negated(own);
  const add = joining ? Object.fromEntries(Object.entries(leaving).map(([b, n]) => [b, -n])) : leaving;
  return [
    {
      tally: {
        key: progressKey(org, scheme),
        add,
        ...(joining ? { join: { work_order_ids: id } } : { leave: { work_order_ids: id } }),
      },
    },
    { check: { ...progressKey(org, id), version: own?.version ?? 0 } },
    { check: resourceKey(org, 'schemes', scheme) },
  ];
};

export type NodeChange = 'created' | 'changed' | 'deleted' | 'restored';

/** The counter moves that go with a write to any node of the work hierarchy (none for contracts and schemes). */
export const progressMoves = async (
  change: NodeChange,
  node: StoredResource,
  previous?: StoredResource,
): Promise<WriteOp[]> => {
  if (node.type === 'operations') {
    if (change === 'changed') return operationMoves(previous ?? null, node);
    return change === 'deleted' ? operationMoves(node, null) : operationMoves(null, node);
  }
  if (node.type !== 'work-orders' || change === 'changed') return [];
  return change === 'created'
    ? workOrderCreated(node, String(node.rels.scheme))
    : workOrderMoves(node, change === 'restored');
};
