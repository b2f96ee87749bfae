/**
 * A migration step that stores each selected record of a type as the code writes it today: its stored
 * form recomputed (`indexed`: sort values, indexed filters' entries) after an optional `change` (a field
 * it gained, with the value every old record had). A record already so is left alone; one a write raced
 * is read again and retried, so a record being edited is still migrated.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ItemSelection, rewriteRecord } from '../data/migrations';
import { getItem } from '../data/repository';
import type { StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';
import type { MigrationStep } from './migration-declarations';
import { indexed } from './stored';

const ATTEMPTS = 3;

export const reindexStep = (
  definition: ResourceDefinition,
  select: ItemSelection,
  change: (record: StoredResource) => StoredResource = (record) => record,
): MigrationStep => {
  const rewrite = async (read: StoredResource): Promise<number> => {
    let record: StoredResource | null = read;
    for (let attempt = 0; record && attempt < ATTEMPTS; attempt++) {
      const after = indexed(definition, change(record));
      if (isDeepStrictEqual(after, record)) return 0;
      if (await rewriteRecord(record, after)) return 1;
      record = await getItem<StoredResource>({ pk: record.pk, sk: record.sk }, true);
    }
    if (record)
      throw new Error(`${definition.type} ${read.id} kept changing while it was migrated: run again`);
    return 0;
  };
  return {
    select,
    migrate: async (items) => (await Promise.all(items.map(rewrite))).reduce((sum, n) => sum + n, 0),
  };
};
