/**
 * What a work-hierarchy node's one move, `restore` (deleted → in_place, declared by `restorable` in
 * `definitions.ts`), writes: the node filed in its tree again and its scheme's counts moved back. Loaded
 * when a node is restored, so the declaration every function reads carries none of the counters' I/O.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import { treeKeys } from '#shared/data/trees';
import type { MoveWrites } from '#shared/engine/lifecycle';
import { progressMoves } from './progress';

/** The node back in its tree, without its deletion's time, with its counts' moves. */
export const nodeRestored = async (moved: StoredResource): Promise<MoveWrites> => {
  const { deleted_at: _at, ...meta } = moved.meta;
  const node = moved.id;
  const live = {
    ...moved,
    meta,
    ...treeKeys(moved.org_id, moved.tree_root ?? node, moved.tree_path ?? node),
  };
  return { record: live, ops: await progressMoves('restored', live) };
};
