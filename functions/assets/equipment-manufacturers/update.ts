import { updateHandler } from '#shared/http/crud-handlers';
import { manufacturerCrud } from '#shared/resources/assets/catalogue';

/** PATCH /v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id} */
export const handler = updateHandler(
  'updateEquipmentManufacturer',
  manufacturerCrud,
  'equipment_manufacturer_id',
);
