import { listHandler } from '#shared/http/crud-handlers';
import { equipmentManufacturers } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-manufacturers */
export const handler = listHandler('listEquipmentManufacturers', equipmentManufacturers);
