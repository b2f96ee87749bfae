/**
 * Migration 25: customer interactions and appointments written before their filters were answered from
 * indexes (issue 42, item 1) have no entry under their channel or status (`gsi1`:
 * `channel#<channel>#<occurred_at>#<id>`, `status#<status>#<starts_at>#<id>`) or their contact (`gsi2`:
 * `CUSTOMER-INTERACTIONS#<org>#<contact>`, `CUSTOMER-APPOINTMENTS#<org>#<contact>`) and are in no channel
 * or status count, so those filters never found them. Each is rewritten as today's code writes it (the
 * entries its declaration derives, its count moved in the same transaction); one step for both types,
 * each page's items to their own. The time windows read keys every record has (`lsi1`, its sort's).
 */
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { customerAppointments, customerInteractions } from '../definitions';

const select = {
  expression:
    'begins_with(pk, :tenant) AND (#type = :interaction OR #type = :appointment) AND (attribute_not_exists(gsi1pk) OR attribute_not_exists(#counted) OR (attribute_type(#rels.#contact, :string) AND attribute_not_exists(gsi2pk)))',
  names: { '#type': 'type', '#counted': 'counted', '#rels': 'rels', '#contact': 'contact' },
  values: {
    ':tenant': 'ORG#',
    ':interaction': customerInteractions.type,
    ':appointment': customerAppointments.type,
    ':string': 'S',
  },
};
const interactions = reindexStep(customerInteractions, select);
const appointments = reindexStep(customerAppointments, select);

export const customerFilterIndex: MigrationStep = {
  select,
  migrate: async (items, now) => {
    const [fromInteractions, fromAppointments] = await Promise.all([
      interactions.migrate(
        items.filter((i) => i.type === customerInteractions.type),
        now,
      ),
      appointments.migrate(
        items.filter((i) => i.type === customerAppointments.type),
        now,
      ),
    ]);
    return fromInteractions + fromAppointments;
  },
};
