import { createHandler } from '#shared/http/crud-handlers';
import { modelCrud } from '#shared/resources/assets/catalogue';

/** POST /v3/orgs/{org_id}/assets/equipment-models: 201 */
export const handler = createHandler('createEquipmentModel', modelCrud);
