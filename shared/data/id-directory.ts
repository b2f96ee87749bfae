import { declareAccessPatterns, keyFrom } from './access-patterns';
import type { Scope } from './scope';
import { inScope } from './scope';
import { type ItemKey, keyId, type StoredResource } from './stored-resource';

const keys = /* @__PURE__ */ declareAccessPatterns('data/id-directory', {
  entry: {
    index: 'table',
    pk: 'ID#{id}',
    sk: 'ID',
    about:
      "where a tenant record is: its `org_id` and `type`, by id alone; put once the record's create has committed and removed once its deletion has (a record parked elsewhere keeps it); only for types a route names by id alone",
  },
});

/**
 * Types whose records no route looks for by id alone: every path to them names their organisation, so
 * nothing reads their entries, and their creates and deletes write none (one item less, 2 write units in a
 * transaction: issue 42, item 7). Filled by `defineResource`; a type not declared so keeps its entries, as
 * every type did. Entries written before (migration 4) stay, read by nothing but a bare-id route of another
 * type, which finds no such record there and answers 404.
 */
const foundInOrganisation = new Set<string>();
export const declareFoundInOrganisation = (type: string): void => {
  foundInOrganisation.add(type);
};
export const keepsDirectoryEntry = (type: string): boolean => !foundInOrganisation.has(type);

export const directoryKey = (id: string): ItemKey => keyFrom(keys.entry, { id });

export interface DirectoryEntry extends ItemKey {
  org_id: string;
  type: string;
}

export const directoryEntry = (record: Pick<StoredResource, 'id' | 'org_id' | 'type'>): DirectoryEntry => ({
  ...directoryKey(record.id),
  org_id: record.org_id,
  type: record.type,
});

/**
 * A tenant record put as it is (a node parked out of its collection, a location an import writes): it
 * lies in its organisation's partition of its type, or a partition under it.
 */
export const isTenantRecord = (item: object): item is StoredResource => {
  const { pk, sk, id, org_id, type } = item as Partial<StoredResource>;
  return (
    typeof id === 'string' &&
    typeof org_id === 'string' &&
    typeof type === 'string' &&
    sk === id &&
    typeof pk === 'string' &&
    (pk === `ORG#${org_id}#${type}` || pk.startsWith(`ORG#${org_id}#${type}#`))
  );
};

/**
 * What one transaction does to the directory, one action per id: an id a
 * record of which is written (created, or put where it now lies) gets its entry; an id whose record is
 * only deleted loses it. A node parked (deleted from its key, put at its parked key) keeps its entry.
 */
export type DirectoryChange = { put: DirectoryEntry; remove?: never } | { put?: never; remove: ItemKey };

export const directoryChanges = (
  written: readonly StoredResource[],
  deleted: readonly StoredResource[],
): DirectoryChange[] => {
  const changes = new Map<string, DirectoryChange>();
  const kept = (record: StoredResource) => keepsDirectoryEntry(record.type);
  for (const record of deleted.filter(kept)) changes.set(record.id, { remove: directoryKey(record.id) });
  for (const record of written.filter(kept)) changes.set(record.id, { put: directoryEntry(record) });
  return [...changes.values()];
};

/**
 * The organisation that holds `id`, as the directory entry read ahead with the credentials says, when
 * it lies inside the scope; undefined when no entry was read, or the entry is absent or outside the scope
 * (the caller then looks as it would without a directory, so an id of another tenant's answers as an
 * unknown one). Peeked, not taken: an entry is a location, not a record handed out once.
 */
export const directoryOrg = (scope: Scope, id: string): string | undefined => {
  const entry = scope.readAhead?.get(keyId(directoryKey(id))) as DirectoryEntry | null | undefined;
  return entry && inScope(scope, entry.org_id) ? entry.org_id : undefined;
};

/**
 * Where records this container has read lie, by id: a record never changes organisation, so what one
 * request learnt (from the directory or the record itself) tells the next request on this container where
 * to read it ahead with the credentials, one round trip in all. A hint only, as the directory is: the scope
 * decides what is kept, and a hint outside the caller's organisations is not used. The oldest are forgotten.
 */
const learnt = new Map<string, string>();
const LEARNT_MAX = 10_000;

export const learnLocation = (id: string, orgId: string) => {
  learnt.delete(id);
  learnt.set(id, orgId);
  if (learnt.size > LEARNT_MAX) learnt.delete(learnt.keys().next().value as string);
};

export const learntLocation = (id: string): string | undefined => learnt.get(id);
