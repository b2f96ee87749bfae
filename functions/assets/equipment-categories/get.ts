import { getHandler } from '#shared/http/crud-handlers';
import { equipmentCategories } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id} */
export const handler = getHandler('getEquipmentCategory', equipmentCategories, 'equipment_category_id');
