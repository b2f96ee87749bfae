import { deleteHandler } from '#shared/http/crud-handlers';
import { modelCrud } from '#shared/resources/assets/catalogue';

/** DELETE /v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id}: 204 */
export const handler = deleteHandler('deleteEquipmentModel', modelCrud, 'equipment_model_id');
