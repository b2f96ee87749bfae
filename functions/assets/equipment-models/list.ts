import { listHandler } from '#shared/http/crud-handlers';
import { equipmentModels } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-models */
export const handler = listHandler('listEquipmentModels', equipmentModels);
