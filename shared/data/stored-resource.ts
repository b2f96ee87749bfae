/**
 * The shape every tenant record has in the table: JSON:API-shaped members so one serialiser serves
 * every type, plus the keys. `org_id` is on every item: tenant isolation is checked against it.
 */
import { declareAccessPatterns, keyFrom, partitionFrom } from './access-patterns';

/** A to-one link that carries identifier meta, such as an allocation's `starts_at`. */
export interface StoredIdentifier {
  id: string;
  meta: Record<string, unknown>;
}

export type StoredRelationship = string | string[] | StoredIdentifier | null;

export interface StoredResource {
  pk: string;
  sk: string;
  type: string;
  id: string;
  org_id: string;
  attributes: Record<string, unknown>;
  meta: Record<string, unknown>;
  rels: Record<string, StoredRelationship>;
  version: number;
  lsi1?: string;
  lsi2?: string;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  /**
   * A child filed under its parent (`children.ts`): its `gsi1pk` partition is counted in
   * `counterKey(org_id, gsi1pk)`, one up and one down by the transaction that creates or deletes it.
   */
  gsi1_counted?: true;
  /**
   * The counts of its type's counter item (`counterKey(org_id, type)`) it is in, one per counted filter
   * (`<field>#<value>`, `FilterOption.counted`; a per-parent filter's on its parent's children counter,
   * `parentCountName`): moved with `count` by the transaction that creates or deletes it, and from
   * `counted_before` to these by one that changes it; internal, never served.
   */
  counted?: string[];
  /**
   * A next version not yet committed whose counted values changed: the counts its previous version was in.
   * The transaction (or a migration's rewrite) moves the counts and never stores it.
   */
  counted_before?: string[];
  /** Work-hierarchy nodes: the root of their tree and the path of ids from it. */
  tree_root?: string;
  tree_path?: string;
  /** Records that expire (device backups): the table's TTL attribute, epoch seconds. */
  expires_at?: number;
  /**
   * Records with a file (document versions, device backups, exports): the S3 key of the file the
   * service accepted or wrote, built from ids only; internal, never served.
   */
  object_key?: string;
  /**
   * Records on the schedule (an award's next expiry warning, an attendance's closing time): the key of
   * their due-work entry (data/due-work.ts), removed by a change that makes it moot; internal, never served.
   */
  schedule?: ItemKey;
  /**
   * Folders with a parent: counted in the parent's count of subfolders (resources/documents/definitions.ts,
   * `subfolderCountKey`), one up and one down by the transaction that files or removes them there. Folders
   * filed before that count was kept lack it and are not in it; internal, never served.
   */
  parent_counted?: true;
  /** Documents: the id of their latest version, which the next one's id sorts after (its number is next). */
  latest_version?: string;
  /** Export jobs: the address the request came to, for the links a JSON file holds; internal. */
  base_url?: string;
  /**
   * Jobs: the permission their request needed, which the worker asks of the creator again before each
   * chunk (resources/jobs/worker.ts); internal, never served.
   */
  permission?: string;
  /** Images: the S3 key of each variant the worker wrote, by name (`functions/images/worker.ts`); internal. */
  variant_keys?: Readonly<Record<string, string>>;
  /** Images: the position the uploading app declared, kept until the worker knows whether EXIF says better. */
  declared_location?: Readonly<{
    latitude: number;
    longitude: number;
    accuracy: number | null;
    heading: number | null;
  }>;
  /** Images: their vector layer (arrows, boxes, text, blur), burnt into the variants only; served by its route. */
  annotations?: readonly Readonly<Record<string, unknown>>[];
  /** Soft-deleted records kept for a legal hold (an image and its original): until when, ISO 8601. */
  hold_until?: string;
}

export interface ItemKey {
  pk: string;
  sk: string;
}

/** One string naming a key, for maps and de-duplication. */
export const keyId = (key: ItemKey): string => `${key.pk}\n${key.sk}`;

/**
 * A tenant item's pattern: one partition per organisation and name (a type's records, a unique attribute's
 * claims, the items its writes keep elsewhere). Every tenant key begins `ORG#<org_id>#`.
 */
export const tenantPattern = <Name extends string, Sk extends string>(name: Name, sk: Sk) =>
  ({ index: 'table', pk: `ORG#{org_id}#${name}`, sk }) as const;

const counters = /* @__PURE__ */ declareAccessPatterns('data/stored-resource', {
  counter: {
    ...tenantPattern('counters', '{counter}'),
    about:
      "`count`. `<T>`: a type's records in the organisation, moved by the transaction that creates or deletes one, beside `<field>#<value>`: those with that value of a counted filter (moved by changes too); `<parent type>#<parent id>#<child type>` of a parent's children (its `gsi1pk`), beside `<field>#<value>` of a counted filter whose pattern is per parent (a pack's site hazards by status); `audit-events#<subject id>` (a vehicle's: its history's entries; moved with each entry), `folder-tree#<folder id>`, `folders#<folder id>#folders`, `<name>#days` (a number per day): the counts other writes keep. Read by key only",
  },
});

/** Tenant records live in one partition per organisation and type; `sk` is the id. */
export const collectionPartition = (orgId: string, type: string): string =>
  partitionFrom(tenantPattern(type, '{id}'), { org_id: orgId });

export const resourceKey = (orgId: string, type: string, id: string): ItemKey =>
  keyFrom(tenantPattern(type, '{id}'), { org_id: orgId, id });

/** Per-organisation collection counters, kept in the same transaction as the writes they count. */
export const counterKey = (orgId: string, counter: string): ItemKey =>
  keyFrom(counters.counter, { org_id: orgId, counter });

/**
 * What committing `record` moves on its counter items, by count name (`countMoves`, each kept where `countedIn` says), and the record
 * as it is stored (without `counted_before`): `created` +1 for each count it is in, a change from the
 * counts before to these.
 */
export const countMoves = (
  record: StoredResource,
  created: boolean,
): { stored: StoredResource; moves: Record<string, number> } => {
  const { counted_before: before, ...stored } = record;
  const moves: Record<string, number> = {};
  if (!created && !before) return { stored, moves };
  for (const name of created ? [] : (before ?? [])) moves[name] = (moves[name] ?? 0) - 1;
  for (const name of stored.counted ?? []) moves[name] = (moves[name] ?? 0) + 1;
  return { stored, moves };
};

/**
 * A count kept on a parent's children counter (`counterKey(org, <parent type>#<parent id>#<child type>)`)
 * rather than on the type's: a counted filter whose pattern is per parent, so a parent's total is its own.
 * An organisation's count name is `<field>#<value>`, never beginning with `@`.
 */
export const parentCountName = (partition: string, name: string): string => `@${partition}@${name}`;

/** The counter item, and the number in it, that a count name of `record` (`counted`) is kept in. */
export const countedIn = (
  record: Pick<StoredResource, 'org_id' | 'type'>,
  name: string,
): { key: ItemKey; name: string } => {
  const end = name.startsWith('@') ? name.indexOf('@', 1) : -1;
  return end < 0
    ? { key: counterKey(record.org_id, record.type), name }
    : { key: counterKey(record.org_id, name.slice(1, end)), name: name.slice(end + 1) };
};

/** The counter a child filed under its parent (children.ts) is counted in; none for any other record. */
export const childCounter = (record: StoredResource): ItemKey | null =>
  record.gsi1_counted && record.gsi1pk ? counterKey(record.org_id, record.gsi1pk) : null;
