import { updateHandler } from '#shared/engine/crud-handlers';
import { equipmentCrud } from './writes';

/** PATCH /v3/orgs/{org_id}/assets/equipment/{equipment_id} */
export const handler = updateHandler('updateEquipment', equipmentCrud, 'equipment_id');

export const requestBody = equipmentCrud.documents.update;
