import { deleteHandler } from '#shared/http/crud-handlers';
import { manufacturerCrud } from '#shared/resources/assets/catalogue';

/** DELETE /v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id}: 204 */
export const handler = deleteHandler(
  'deleteEquipmentManufacturer',
  manufacturerCrud,
  'equipment_manufacturer_id',
);
