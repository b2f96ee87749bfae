import { getHandler } from '#shared/http/crud-handlers';
import { equipmentItems } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment/{equipment_id} */
export const handler = getHandler('getEquipment', equipmentItems, 'equipment_id');
