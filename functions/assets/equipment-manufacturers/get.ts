import { getHandler } from '#shared/http/crud-handlers';
import { equipmentManufacturers } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id} */
export const handler = getHandler(
  'getEquipmentManufacturer',
  equipmentManufacturers,
  'equipment_manufacturer_id',
);
