import { deleteHandler } from '#shared/engine/crud-handlers';
import { equipmentCrud } from './writes';

/** DELETE /v3/orgs/{org_id}/assets/equipment/{equipment_id}: 204; frees its serial */
export const handler = deleteHandler('deleteEquipment', equipmentCrud, 'equipment_id');
