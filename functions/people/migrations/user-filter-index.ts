/**
 * Migration 15: users written before their filters
 * were answered from indexes (issue 42, item 1) have no entry under their status (`gsi1`:
 * `status#<status>#<id>`), are in no status count, and, holding a job role, have no entry under it (`gsi2`:
 * `job_role#<job role id>#<id>`), so `filter[status]` and `filter[job_role]` never found them. Each is
 * rewritten as today's code writes it: the entries its declaration derives, and its status's count moved
 * in the same transaction (data/migrations.ts `rewriteRecord`).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { users } from '../users';

export const userFilterIndex = reindexStep(users, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND ((attribute_exists(#attributes.#status) AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(#counted))) OR (attribute_type(#rels.#job_role, :string) AND attribute_not_exists(gsi2pk)))',
  names: {
    '#type': 'type',
    '#attributes': 'attributes',
    '#status': 'status',
    '#counted': 'counted',
    '#rels': 'rels',
    '#job_role': 'job_role',
  },
  values: { ':type': users.type, ':tenant': 'ORG#', ':string': 'S' },
});
