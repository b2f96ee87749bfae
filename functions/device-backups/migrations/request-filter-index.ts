/**
 * Migration 39: device backup requests written before `filter[device]` and `filter[status]` were answered
 * from indexes (issue 42, item 1) have no entry under either (`lsi1` `device#<device>#<id>`, `lsi2`
 * `status#<status>#<id>`) and are in no status count, so the filters never found them. Each is rewritten
 * as today's code writes it (its entries, its count moved in the same transaction).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { deviceBackupRequests } from '../definitions';

export const requestFilterIndex = reindexStep(deviceBackupRequests, {
  expression:
    'begins_with(pk, :tenant) AND #type = :type AND (attribute_not_exists(lsi1) OR attribute_not_exists(lsi2) OR attribute_not_exists(#counted))',
  names: { '#type': 'type', '#counted': 'counted' },
  values: { ':tenant': 'ORG#', ':type': deviceBackupRequests.type },
});
