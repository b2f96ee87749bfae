/**
 * The work-hierarchy tree index on `gsi1`: `TREE#<org>#<root id>` with the node's path of ids as sort
 * key, so a node's whole subtree (itself included) is one paged `begins_with` Query. Ids are UUIDs of
 * one length, so a path prefix never matches a sibling.
 */
import { declareAccessPatterns, indexKeysFrom, keyFrom, partitionFrom } from './access-patterns';
import { queryItems } from './repository';
import type { Scope } from './scope';
import { inScope } from './scope';
import { type StoredResource, tenantPattern } from './stored-resource';

const keys = /* @__PURE__ */ declareAccessPatterns('data/trees', {
  tree: {
    index: 'gsi1',
    pk: 'TREE#{org_id}#{root_id}',
    sk: '{path}',
    about:
      'a work-hierarchy node under its root, by its path of ids (`tree_root`, `tree_path`): a subtree is one `begins_with` Query',
  },
});

export const treeKeys = (orgId: string, root: string, path: string) => ({
  tree_root: root,
  tree_path: path,
  ...indexKeysFrom(keys.tree, { org_id: orgId, root_id: root, path }),
});

export const subtree = async (scope: Scope, node: StoredResource): Promise<StoredResource[]> =>
  node.tree_root && node.tree_path && inScope(scope, node.org_id)
    ? queryItems({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :root AND begins_with(gsi1sk, :path)',
        ExpressionAttributeValues: {
          ':root': partitionFrom(keys.tree, { org_id: node.org_id, root_id: node.tree_root }),
          ':path': node.tree_path,
        },
      })
    : [];

/** Where soft-deleted records wait, out of their collection and out of the tree, until restored. */
export const deletedKey = (orgId: string, type: string, id: string) =>
  keyFrom(deletedPattern(type), { org_id: orgId, id });

/** A tree type's parked records (its declaration's `deleted` key). */
export const deletedPattern = <Type extends string>(type: Type) =>
  ({
    ...tenantPattern(`${type}#deleted`, '{id}'),
    about: 'a soft-deleted node, out of its collection and its tree until restored',
  }) as const;
