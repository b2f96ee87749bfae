/**
 * Cost sheets and lines written before work nodes kept their sums (31720d7^) were filed in the tree
 * index after their node's path (`gsi1pk` `TREE#<org>#<root>`, `gsi1sk` `<node path>#~sheet#<id>` or
 * `…#~line#<id>`, with `node_path` and `tree_root`), and a roll-up summed them from there. Roll-ups read
 * nodes now, so their node answered no sheet and none of their amounts. Each is folded into what its
 * node keeps as a write today folds it (`sheetAdded`, `lineAdded`: a line by its kind and its sheet's
 * status now), and leaves the tree index in the same transaction, conditional on still being filed as
 * read: the filing is the mark of "not yet folded", so each is folded once however often it is handed.
 * A node deleted meanwhile keeps them where it waits, so a restore brings them back, as today.
 */
import { dropAttributes } from '#shared/data/migrations';
import { batchGet, getItem } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { type ItemKey, keyId, type StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { deletedKey } from '#shared/data/trees';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { costLines, costSheets } from '../definitions';
import { lineAdded, nodeKeyOf, nodeOf, sheetAdded } from '../node-totals';
import { bucketOf, type Category, lineSums, type SheetStatus } from '../rules/roll-up';

const actor = systemActor('migrations');
const ATTEMPTS = 3;
/** What the old code filed a sheet or line with, and today's does not. */
const FILED = ['gsi1pk', 'gsi1sk', 'node_path', 'tree_root'];
const TREE = 'TREE#';

const filed = (record: StoredResource | null): record is StoredResource =>
  typeof record?.gsi1pk === 'string' && record.gsi1pk.startsWith(TREE);

const sheetKeyOf = (record: StoredResource) =>
  record.type === costSheets.type ? costSheets.keyOf(record.org_id, record.id) : lineSheetKey(record);
const lineSheetKey = (line: StoredResource) => costSheets.keyOf(line.org_id, String(line.rels.cost_sheet));

/** Where the sheet's node is: in its tree, or parked while deleted; null when neither holds it. */
const nodeHolding = async (sheet: StoredResource): Promise<ItemKey | null> => {
  const live = nodeKeyOf(sheet);
  if (await getItem(live, true)) return live;
  const { type, id } = nodeOf(sheet);
  const parked = deletedKey(sheet.org_id, type, id);
  return (await getItem(parked, true)) ? parked : null;
};

/** What a write today adds for this sheet or line; null when its sheet or node is nowhere. */
const foldOps = async (record: StoredResource, sheet: StoredResource | null): Promise<WriteOp[] | null> => {
  const node = sheet && (await nodeHolding(sheet));
  if (!sheet || !node) return null;
  if (record.type === costSheets.type) return [sheetAdded(node)];
  const line = record.attributes as {
    kind: 'actual' | 'estimate';
    snapshot: { category: Category };
    cost: { amount: number; currency: string };
    charge: { amount: number };
  };
  const sums = lineSums({
    category: line.snapshot.category,
    cost: line.cost.amount,
    charge: line.charge.amount,
  });
  const bucket = bucketOf({ kind: line.kind, sheetStatus: sheet.attributes.status as SheetStatus });
  return lineAdded(sheet, { bucket, sums, currency: line.cost.currency }, node);
};

/**
 * Folds one sheet or line (1) or finds it folded already (0). A refusal (its sheet's status moved, its
 * node deleted or restored, another runner folded it) reads it again and retries. One whose sheet or node
 * is nowhere stays filed, its amounts kept: it has no node to answer them.
 */
const folded = async (read: StoredResource, sheetRead: StoredResource | null): Promise<number> => {
  let record: StoredResource | null = read;
  let sheet = sheetRead;
  for (let attempt = 0; filed(record) && attempt < ATTEMPTS; attempt++) {
    const ops = await foldOps(record, sheet);
    if (!ops) return 0;
    try {
      await commit(scopeOf([record.org_id], undefined, actor), [...ops, dropAttributes(record, FILED)]);
      return 1;
    } catch (error) {
      if (!(error instanceof WriteRefused && error.code === 'stale')) throw error;
    }
    record = await getItem<StoredResource>({ pk: read.pk, sk: read.sk }, true);
    sheet = record && (await getItem<StoredResource>(sheetKeyOf(record), true));
  }
  if (filed(record)) throw new Error(`${read.type} ${read.id} kept changing while it was folded: run again`);
  return 0;
};

export const costSums: MigrationStep = {
  select: {
    expression: 'begins_with(gsi1pk, :tree) AND (#type = :sheets OR #type = :lines)',
    names: { '#type': 'type' },
    values: { ':tree': TREE, ':sheets': costSheets.type, ':lines': costLines.type },
  },
  migrate: async (items) => {
    const sheets = new Map(
      (await batchGet(items.map(sheetKeyOf))).map((s): [string, StoredResource] => [keyId(s), s]),
    );
    const sheetOf = (record: StoredResource) => sheets.get(keyId(sheetKeyOf(record))) ?? null;
    // One node's folds one after another (each moves the node: together they would only conflict);
    // different nodes' side by side.
    const byNode = new Map<string, StoredResource[]>();
    for (const item of items) {
      const sheet = sheetOf(item);
      const group = sheet ? keyId(nodeKeyOf(sheet)) : keyId(item);
      byNode.set(group, [...(byNode.get(group) ?? []), item]);
    }
    const counts = await Promise.all(
      [...byNode.values()].map(async (group) => {
        let changed = 0;
        for (const item of group) changed += await folded(item, sheetOf(item));
        return changed;
      }),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  },
};
