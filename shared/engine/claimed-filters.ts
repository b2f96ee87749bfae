/**
 * Filters answered by a uniqueness claim (`FilterOption.claimed`): a value unique in the organisation (a
 * job role's code) is claimed by an item that names its holder (`holder_id`, written in the holder's own
 * transaction: simple-crud.ts), so an equality on it reads that item and the record it names, one GetItem
 * each, whatever the collection's size, instead of a range of any index.
 */
import { keyFrom, partsOf } from '../data/access-patterns';
import type { CollectionQuery, FilterClause, PageRead } from '../data/collection-query';
import { applyInMemory } from '../data/in-memory-collection';
import { getItem } from '../data/repository';
import { SORT_KEY_MAX_BYTES } from '../data/storage-limits';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';

/** The key of the claim a query's claimed equality names, in one organisation, or null when it has none. */
export const claimOf = (
  definition: ResourceDefinition,
  orgId: string,
  query: CollectionQuery,
): ItemKey | null => {
  const options = definition.collection?.filters ?? {};
  const equal = query.filters.find(
    (c): c is Extract<FilterClause, { op: 'eq' }> => c.op === 'eq' && options[c.field]?.claimed === true,
  );
  const name = equal && options[equal.field]?.index;
  const pattern = name === undefined ? undefined : definition.keys[name];
  if (!equal || !pattern) return null;
  // The claim's one part beside the organisation is the unique value (`{code}`), as the claim was written.
  const [part = ''] = partsOf(pattern).filter((p) => p !== 'org_id');
  return keyFrom(pattern, { org_id: orgId, [part]: String(equal.value) } as never);
};

/**
 * The page of a claimed equality: the record the claim names, if it still matches every clause (the
 * others, and the value itself, applied as over any records in hand). A value no key can hold, or no
 * claim, names nothing.
 */
export const readClaimed = async (
  definition: ResourceDefinition,
  orgId: string,
  claim: ItemKey,
  query: CollectionQuery,
): Promise<PageRead<StoredResource>> => {
  const fits = claim.sk !== '' && Buffer.byteLength(claim.sk) <= SORT_KEY_MAX_BYTES;
  const holder = fits ? (await getItem<{ holder_id?: unknown }>(claim))?.holder_id : undefined;
  const record =
    typeof holder === 'string' ? await getItem<StoredResource>(definition.keyOf(orgId, holder)) : null;
  return applyInMemory(record ? [record] : [], query);
};
