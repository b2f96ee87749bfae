import { createHandler } from '#shared/http/crud-handlers';
import { vehicleSpecificationCrud } from '#shared/resources/assets/catalogue';

/** POST /v3/orgs/{org_id}/assets/vehicle-specifications: 201 */
export const handler = createHandler('createVehicleSpecification', vehicleSpecificationCrud);
