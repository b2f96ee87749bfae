import { createHandler } from '#shared/engine/crud-handlers';
import { equipmentCrud } from './writes';

/** POST /v3/orgs/{org_id}/assets/equipment: 201; 409 for a serial already used in the organisation */
export const handler = createHandler('createEquipment', equipmentCrud);

export const requestBody = equipmentCrud.documents.create;
