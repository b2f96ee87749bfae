/**
 * Migration 4: records stored before the id directory (issue 42, item 2) have no entry in it, so a path
 * naming one by its bare id looked it up in every organisation the caller reads. Each tenant record (at
 * its own key or parked) of a type that keeps entries gets the entry a create writes today; one that has
 * it, or is gone, is left alone.
 */
import { directoryEntry, isTenantRecord, keepsDirectoryEntry } from '#shared/data/id-directory';
import { putBeside } from '#shared/data/migrations';
import type { MigrationStep } from '#shared/engine/migration-declarations';

export const idDirectory: MigrationStep = {
  select: {
    // A tenant record's sort key is its id (other items in tenant partitions are keyed otherwise).
    expression:
      'begins_with(pk, :tenant) AND sk = #id AND attribute_exists(#type) AND attribute_exists(org_id)',
    names: { '#id': 'id', '#type': 'type' },
    values: { ':tenant': 'ORG#' },
  },
  migrate: async (items) =>
    (
      await Promise.all(
        items
          .filter(isTenantRecord)
          .filter((record) => keepsDirectoryEntry(record.type))
          .map((record) => putBeside(record, { ...directoryEntry(record) })),
      )
    ).filter(Boolean).length,
};
