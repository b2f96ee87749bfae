import { createHandler } from '#shared/http/crud-handlers';
import { vehicleCrud } from '#shared/resources/assets/vehicles';

/** POST /v3/orgs/{org_id}/assets/vehicles: 201 */
export const handler = createHandler('createVehicle', vehicleCrud);
