/**
 * A work hierarchy seeded with BatchWriteItem (tests and the bench), stored as its creates would have
 * stored it: the records and their counters (counted-seed.ts), and the progress items those creates'
 * transactions keep (functions/projects/progress.ts): each scheme's list of its work orders, and each
 * work order's and scheme's operations counted by bucket. A scheme's `filter[scheme]` reads its list.
 */
import { progressKey } from '#functions/projects/progress-keys';
import { bucketOf, type OperationFacts } from '#functions/projects/rules/scheme-progress';
import { bulkPut } from '#shared/data/bulk';
import { keyId, type StoredResource } from '#shared/data/stored-resource';
import { bulkPutCounted } from './counted-seed';

type Progress = Record<string, unknown> & { work_order_ids?: Set<string> };

export const bulkPutHierarchy = async (nodes: readonly StoredResource[]): Promise<void> => {
  const items = new Map<string, Progress>();
  const progressOf = (org: string, id: string, own: object = {}) => {
    const key = progressKey(org, id);
    const item = items.get(keyId(key)) ?? { ...key, ...own };
    items.set(keyId(key), item);
    return item;
  };
  const add = (item: Progress, name: string, by: number) => {
    item[name] = ((item[name] as number | undefined) ?? 0) + by;
  };
  for (const node of nodes) {
    if (node.type === 'work-orders') {
      const scheme = progressOf(node.org_id, String(node.rels.scheme));
      scheme.work_order_ids = new Set([...(scheme.work_order_ids ?? []), node.id]);
      progressOf(node.org_id, node.id, { version: 0 });
    }
    if (node.type === 'operations') {
      // …/scheme/work order/operation, as progress.ts reads an operation's ancestors.
      const [scheme = '', workOrder = ''] = String(node.tree_path).split('/').slice(-3, -1);
      const bucket = bucketOf(node.attributes as OperationFacts);
      const own = progressOf(node.org_id, workOrder, { version: 0 });
      add(own, bucket, 1);
      add(own, 'version', 1);
      add(progressOf(node.org_id, scheme), bucket, 1);
    }
  }
  await bulkPutCounted(nodes);
  await bulkPut([...items.values()]);
};
