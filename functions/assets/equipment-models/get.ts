import { getHandler } from '#shared/http/crud-handlers';
import { equipmentModels } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id} */
export const handler = getHandler('getEquipmentModel', equipmentModels, 'equipment_model_id');
