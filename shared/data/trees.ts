/**
 * The work-hierarchy tree index on `gsi1`: `TREE#<org>#<root id>` with the node's path of ids as sort
 * key, so a node's whole subtree (itself included) is one paged `begins_with` Query. Ids are UUIDs of
 * one length, so a path prefix never matches a sibling.
 */
import { queryItems } from './repository';
import type { Scope } from './scope';
import { inScope } from './scope';
import type { StoredResource } from './stored-resource';

export const treeKeys = (orgId: string, root: string, path: string) => ({
  tree_root: root,
  tree_path: path,
  gsi1pk: `TREE#${orgId}#${root}`,
  gsi1sk: path,
});

export const subtree = async (scope: Scope, node: StoredResource): Promise<StoredResource[]> =>
  node.tree_root && node.tree_path && inScope(scope, node.org_id)
    ? queryItems({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :root AND begins_with(gsi1sk, :path)',
        ExpressionAttributeValues: {
          ':root': `TREE#${node.org_id}#${node.tree_root}`,
          ':path': node.tree_path,
        },
      })
    : [];

/** Where soft-deleted records wait, out of their collection and out of the tree, until restored. */
export const deletedKey = (orgId: string, type: string, id: string) => ({
  pk: `ORG#${orgId}#${type}#deleted`,
  sk: id,
});
