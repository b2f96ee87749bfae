/**
 * A migration step for a type kept by creator (exports, jobs: `keptByCreator`) whose records were stored
 * before they were filed on their creator's index (issue 19): no `gsi1` keys, so the creator's list never
 * found them, and in no day's count, so its total left them out. Each is stored as a record made on its
 * day is today: filed under its creator, its TTL (where it has one) the end of its day of creation plus
 * the days kept, and counted in that day, in one transaction. One a write raced is read again and retried.
 */
import type { Kept } from '../data/kept';
import { rewriteCounted } from '../data/migrations';
import { getItem } from '../data/repository';
import { dayCount, expiryOf, keptIndexKeys } from '../data/retention';
import type { StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';
import type { MigrationStep } from './migration-declarations';

const ATTEMPTS = 3;

const creatorOf = (record: StoredResource) =>
  [record.rels.created_by_user, record.rels.created_by_service_account].find(
    (id): id is string => typeof id === 'string',
  );

/** The record as one made on its day is stored today: filed under its creator, its TTL from its day. */
const filed = (record: StoredResource, kept: Kept, createdAt: Date): StoredResource => {
  if (record.expires_at === undefined) return { ...record, ...keptIndexKeys(kept, record.id) };
  const expiresAt = expiryOf(kept.days, createdAt);
  return {
    ...record,
    ...keptIndexKeys(kept, record.id),
    expires_at: expiresAt,
    ...(record.meta.expires_at !== undefined && {
      meta: { ...record.meta, expires_at: new Date(expiresAt * 1000).toISOString() },
    }),
  };
};

export const keptByCreatorStep = (
  definition: ResourceDefinition,
  keptOf: (orgId: string, principalId: string) => Kept,
): MigrationStep => {
  const file = async (read: StoredResource): Promise<number> => {
    const creator = creatorOf(read);
    if (!creator) return 0;
    const kept = keptOf(read.org_id, creator);
    const createdAt = new Date(String(read.meta.created_at));
    let record: StoredResource | null = read;
    for (let attempt = 0; record && attempt < ATTEMPTS; attempt++) {
      if (record.gsi1pk !== undefined) return 0;
      if (await rewriteCounted(record, filed(record, kept, createdAt), dayCount(kept, createdAt))) return 1;
      record = await getItem<StoredResource>({ pk: record.pk, sk: record.sk }, true);
    }
    if (record)
      throw new Error(`${definition.type} ${read.id} kept changing while it was migrated: run again`);
    return 0;
  };
  return {
    select: {
      // The records themselves (their sort key is their id), never filed: a filed one has its gsi1 keys.
      expression: '#type = :type AND begins_with(pk, :tenant) AND sk = #id AND attribute_not_exists(gsi1pk)',
      names: { '#type': 'type', '#id': 'id' },
      values: { ':type': definition.type, ':tenant': 'ORG#' },
    },
    migrate: async (items) => (await Promise.all(items.map(file))).reduce((sum, n) => sum + n, 0),
  };
};
