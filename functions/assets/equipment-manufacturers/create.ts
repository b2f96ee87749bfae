import { createHandler } from '#shared/http/crud-handlers';
import { manufacturerCrud } from '#shared/resources/assets/catalogue';

/** POST /v3/orgs/{org_id}/assets/equipment-manufacturers: 201 */
export const handler = createHandler('createEquipmentManufacturer', manufacturerCrud);
