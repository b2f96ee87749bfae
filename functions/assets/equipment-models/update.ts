import { updateHandler } from '#shared/http/crud-handlers';
import { modelCrud } from '#shared/resources/assets/catalogue';

/** PATCH /v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id} */
export const handler = updateHandler('updateEquipmentModel', modelCrud, 'equipment_model_id');
