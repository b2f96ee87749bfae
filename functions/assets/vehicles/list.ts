import { listHandler } from '#shared/http/crud-handlers';
import { vehicles } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/vehicles */
export const handler = listHandler('listVehicles', vehicles);
