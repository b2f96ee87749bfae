/**
 * Collections under one parent (a scheme's appointments, a plan's risks, an agent's briefings, …): the
 * parent is read in the scope (404 if absent), then its children come either from the ids it lists
 * (one BatchGetItem per 100, strongly bounded) or from its `gsi1` partition; filters, sort and page
 * apply in memory over that bounded set, with the same query language as every collection.
 */
import { applyInMemory } from '../data/in-memory-collection';
import { batchGetInScope, readIndex } from '../data/repository';
import type { StoredResource } from '../data/stored-resource';
import { type CollectionRequest, listResources } from './collection';
import type { ResourceDefinition } from './resource-definition';
import { relatedIds } from './serialise';
import { readInScope } from './single';

/** The `gsi1` key children of a parent are filed under: `<parent type>#<parent id>#<child type>`. */
export const childIndexKey = (parent: StoredResource, type: string) => `${parent.type}#${parent.id}#${type}`;

export const listChildren = async (
  request: CollectionRequest,
  parent: ResourceDefinition,
  parentId: string,
  child: ResourceDefinition,
  /** The parent's relationship listing the children; without it, the parent's `gsi1` partition. */
  listedAs?: string,
) => {
  const record = await readInScope(request.scope, parent, parentId);
  return listResources(request, child, async (query) => {
    const items = listedAs
      ? await batchGetInScope(
          request.scope,
          relatedIds(record, listedAs).map((id) => child.keyOf(record.org_id, id)),
        )
      : await readIndex(request.scope, childIndexKey(record, child.type));
    return applyInMemory(items, query);
  });
};
