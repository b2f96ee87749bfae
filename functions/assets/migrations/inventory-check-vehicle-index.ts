/**
 * Migration 23: vehicle inventory checks written before `filter[vehicle]` was answered from an index
 * (issue 42, item 1) have no entry under their vehicle (`lsi2`: `vehicle#<vehicle id>#<id>`), so the
 * filter never found them. Each is rewritten as today's code writes it (the entries its declaration
 * derives). `inspected_at` and `created_at` read keys every check already has (`lsi1`, its id).
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { vehicleInventoryChecks } from '../definitions';

export const inventoryCheckVehicleIndex = reindexStep(vehicleInventoryChecks, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND attribute_type(#rels.#vehicle, :string) AND attribute_not_exists(lsi2)',
  names: { '#type': 'type', '#rels': 'rels', '#vehicle': 'vehicle' },
  values: { ':type': vehicleInventoryChecks.type, ':tenant': 'ORG#', ':string': 'S' },
});
