/**
 * Migration 29 (issue 42, item 3): scheme progress items (`progress.ts`, b83d0e5) were never carried
 * over. A scheme stored before them has none, so it answered no `work_orders`, zero counts, and an empty
 * `filter[scheme]` on work orders; a work order stored before has none of its own, so its delete and
 * restore (which check its item's version) answered 409. Each scheme and work order, in place or parked,
 * gets the item the hierarchy's writes would have left, built from its subtree on the tree index:
 * - a scheme: its live work orders' ids (those in the tree: a deleted one leaves it), and the operations
 *   beneath them counted by bucket (a deleted operation leaves the tree; one beneath a deleted work order
 *   stays in it but left the scheme's counts with its work order);
 * - a work order: its live operations by bucket, at version 0 (a create's).
 * The put is conditional on absence: a count-moving write since the deploy made the item and keeps what it
 * wrote, and one made after the subtree was read adds to what is put. A rerun reads each subtree again and
 * writes nothing (each put is refused).
 */
import { putIfAbsent } from '#shared/data/migrations';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { subtree } from '#shared/data/trees';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { schemes, workOrders } from '../definitions';
import { progressKey } from '../progress-keys';
import { bucketOf, OPERATION_BUCKETS, type OperationFacts } from '../rules/scheme-progress';

const actor = systemActor('migrations');

/** The nodes of `type` whose parent in the tree is `parent` (its path plus their id). */
const childrenOf = (parent: StoredResource, beneath: readonly StoredResource[], type: string) =>
  beneath.filter((n) => n.type === type && n.tree_path === `${parent.tree_path}/${n.id}`);

/** Operations counted by bucket, every bucket named. */
const counted = (operations: readonly StoredResource[]) =>
  Object.fromEntries(
    OPERATION_BUCKETS.map((bucket) => [
      bucket,
      operations.filter((o) => bucketOf(o.attributes as OperationFacts) === bucket).length,
    ]),
  );

/** What a scheme's progress holds: its live work orders and their live operations. */
const schemeProgressOf = (scheme: StoredResource, beneath: readonly StoredResource[]) => {
  const live = childrenOf(scheme, beneath, workOrders.type);
  const operations = live.flatMap((workOrder) => childrenOf(workOrder, beneath, 'operations'));
  // DynamoDB keeps no empty set: a scheme without work orders has no list, as one whose last one left.
  return {
    ...counted(operations),
    ...(live.length > 0 && { work_order_ids: new Set(live.map((w) => w.id)) }),
  };
};

/** What a work order's own progress holds: its live operations, at a create's version. */
const workOrderProgressOf = (workOrder: StoredResource, beneath: readonly StoredResource[]) => ({
  ...counted(childrenOf(workOrder, beneath, 'operations')),
  version: 0,
});

const built = async (node: StoredResource): Promise<number> => {
  const key = progressKey(node.org_id, node.id);
  // A parked node keeps its path (its restore files it again); its subtree is still in the tree.
  const beneath = await subtree(scopeOf([node.org_id], undefined, actor), node);
  const progress =
    node.type === schemes.type ? schemeProgressOf(node, beneath) : workOrderProgressOf(node, beneath);
  return (await putIfAbsent({ ...key, ...progress })) ? 1 : 0;
};

export const schemeProgressItems: MigrationStep = {
  select: {
    // Schemes and work orders, in place (`ORG#<org>#<type>`) and parked (`…#deleted`): whether one has
    // its item is another item's absence, which a Scan filter cannot see, so each is read.
    expression:
      '#type IN (:schemes, :workOrders) AND begins_with(pk, :tenant) AND attribute_exists(tree_path)',
    names: { '#type': 'type' },
    values: { ':schemes': schemes.type, ':workOrders': workOrders.type, ':tenant': 'ORG#' },
  },
  migrate: async (items) => (await Promise.all(items.map(built))).reduce((sum, n) => sum + n, 0),
};
