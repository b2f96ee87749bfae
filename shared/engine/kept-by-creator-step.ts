/**
 * A migration step for a type kept by creator (exports, jobs: `keptByCreator`) whose records were stored
 * before they were filed on their creator's index (issue 19): no `gsi1` keys, so the creator's list never
 * found them, and in no day's count, so its total left them out. Each is filed under its creator and
 * counted in its day (`keptRefilingStep`).
 */
import type { Kept } from '../data/kept';
import { keptIndexKeys } from '../data/retention';
import type { StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';
import { keptRefilingStep } from './kept-refiling-step';
import type { MigrationStep } from './migration-declarations';

const creatorOf = (record: StoredResource) =>
  [record.rels.created_by_user, record.rels.created_by_service_account].find(
    (id): id is string => typeof id === 'string',
  );

export const keptByCreatorStep = (
  definition: ResourceDefinition,
  keptOf: (orgId: string, principalId: string) => Kept,
): MigrationStep =>
  keptRefilingStep(definition, {
    // A filed one has its gsi1 keys.
    unfiled: { expression: 'attribute_not_exists(gsi1pk)' },
    filed: (record) => record.gsi1pk !== undefined,
    keptOf: (record) => {
      const creator = creatorOf(record);
      return creator ? keptOf(record.org_id, creator) : undefined;
    },
    keys: (record, kept) => keptIndexKeys(kept, record.id),
  });
