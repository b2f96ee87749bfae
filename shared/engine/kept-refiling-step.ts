/**
 * A migration step for a kept collection (`shared/data/kept.ts`) whose records were stored before they
 * were filed as it reads them today: off its key range, or in it under another key, and in no day's
 * count, so its list missed them or its total left them out. Each is stored as a record made on its day
 * is today: its collection's keys, its TTL (where it has one) the end of its day of creation plus the
 * days kept, and counted in that day, in one transaction. One a write raced is read again and retried.
 * Kept by creator (exports, jobs) and a subscription's deliveries are its two uses.
 */
import type { Kept } from '../data/kept';
import { type ItemSelection, rewriteCounted } from '../data/migrations';
import { getItem } from '../data/repository';
import { dayCount, expiryOf } from '../data/retention';
import type { StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';
import type { MigrationStep } from './migration-declarations';

const ATTEMPTS = 3;

export interface KeptRefiling {
  /** A filter (beside the type's records themselves) for those never filed. */
  unfiled: ItemSelection;
  /** The same test on a record read again: true once filed (by this step or a write since). */
  filed(record: StoredResource): boolean;
  /** The collection it belongs to, if any (a record without one is left alone). */
  keptOf(record: StoredResource): Kept | undefined;
  /** Its keys in that collection, as a record made at `createdAt` is filed today. */
  keys(record: StoredResource, kept: Kept, createdAt: Date): Partial<StoredResource>;
}

/** The record as one made on its day is stored today: filed, its TTL from its day. */
const refiled = (
  record: StoredResource,
  keys: Partial<StoredResource>,
  kept: Kept,
  createdAt: Date,
): StoredResource => {
  if (record.expires_at === undefined) return { ...record, ...keys };
  const expiresAt = expiryOf(kept.days, createdAt);
  return {
    ...record,
    ...keys,
    expires_at: expiresAt,
    ...(record.meta.expires_at !== undefined && {
      meta: { ...record.meta, expires_at: new Date(expiresAt * 1000).toISOString() },
    }),
  };
};

export const keptRefilingStep = (definition: ResourceDefinition, refiling: KeptRefiling): MigrationStep => {
  const file = async (read: StoredResource): Promise<number> => {
    const kept = refiling.keptOf(read);
    if (!kept) return 0;
    const createdAt = new Date(String(read.meta.created_at));
    let record: StoredResource | null = read;
    for (let attempt = 0; record && attempt < ATTEMPTS; attempt++) {
      if (refiling.filed(record)) return 0;
      const after = refiled(record, refiling.keys(record, kept, createdAt), kept, createdAt);
      if (await rewriteCounted(record, after, dayCount(kept, createdAt))) return 1;
      record = await getItem<StoredResource>({ pk: record.pk, sk: record.sk }, true);
    }
    if (record)
      throw new Error(`${definition.type} ${read.id} kept changing while it was migrated: run again`);
    return 0;
  };
  return {
    select: {
      // The records themselves (their sort key is their id), never filed.
      expression: `#type = :type AND begins_with(pk, :tenant) AND sk = #id AND (${refiling.unfiled.expression})`,
      names: { '#type': 'type', '#id': 'id', ...refiling.unfiled.names },
      values: { ':type': definition.type, ':tenant': 'ORG#', ...refiling.unfiled.values },
    },
    migrate: async (items) => (await Promise.all(items.map(file))).reduce((sum, n) => sum + n, 0),
  };
};
