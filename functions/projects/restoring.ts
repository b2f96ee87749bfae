/**
 * A work-hierarchy node's one move, `restore` (deleted → in_place). Deleting parks a node in its
 * organisation's deleted partition, out of its collection and its tree (`hierarchy.ts`): its state is
 * where it is kept, not an attribute (`status` is the work's own, PATCHed freely). The move's route reads
 * it there (`parked`), and its writes file it in its tree again and move its scheme's counts back.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import { deletedKey, treeKeys } from '#shared/data/trees';
import { defineLifecycle, type MoveWrites } from '#shared/engine/lifecycle';
import { progressMoves } from './progress';

export const NODE_STATES = ['in_place', 'deleted'] as const;

/** The node back in its tree, without its deletion's time, with its counts' moves. */
const nodeRestored = async (moved: StoredResource): Promise<MoveWrites> => {
  const { deleted_at: _at, ...meta } = moved.meta;
  const node = moved.id;
  const live = {
    ...moved,
    meta,
    ...treeKeys(moved.org_id, moved.tree_root ?? node, moved.tree_path ?? node),
  };
  return { record: live, ops: await progressMoves('restored', live) };
};

/** The machine of a node of `type`, called `noun` in its reasons ("A scheme in place cannot be restored."). */
export const restorable = (type: string, noun: string) =>
  defineLifecycle({
    state: () => 'in_place',
    parked: { state: 'deleted', keyOf: (orgId, id) => deletedKey(orgId, type, id) },
    states: NODE_STATES,
    noun,
    transitions: {
      restore: { from: ['deleted'], to: 'in_place', event: 'restored', writes: nodeRestored },
    },
  });
