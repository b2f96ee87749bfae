import { deleteHandler } from '#shared/http/crud-handlers';
import { categoryCrud } from '#shared/resources/assets/catalogue';

/** DELETE /v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id}: 204 */
export const handler = deleteHandler('deleteEquipmentCategory', categoryCrud, 'equipment_category_id');
