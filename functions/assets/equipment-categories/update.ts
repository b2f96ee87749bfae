import { updateHandler } from '#shared/http/crud-handlers';
import { categoryCrud } from '#shared/resources/assets/catalogue';

/** PATCH /v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id} */
export const handler = updateHandler('updateEquipmentCategory', categoryCrud, 'equipment_category_id');
