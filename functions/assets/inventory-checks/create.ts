import { createHandler } from '#shared/engine/crud-handlers';
import { inventoryCheckCrud } from './writes';

/** POST /v3/orgs/{org_id}/assets/vehicle-inventory-checks: 201 with meta.summary computed from the items. */
export const handler = createHandler('createVehicleInventoryCheck', inventoryCheckCrud);

export const requestBody = inventoryCheckCrud.documents.create;
