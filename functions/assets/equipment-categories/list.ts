import { listHandler } from '#shared/http/crud-handlers';
import { equipmentCategories } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-categories */
export const handler = listHandler('listEquipmentCategories', equipmentCategories);
