import { listHandler } from '#shared/http/crud-handlers';
import { equipmentItems } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment */
export const handler = listHandler('listEquipment', equipmentItems);
