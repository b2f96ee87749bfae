import { createHandler } from '#shared/http/crud-handlers';
import { categoryCrud } from '#shared/resources/assets/catalogue';

/** POST /v3/orgs/{org_id}/assets/equipment-categories: 201 */
export const handler = createHandler('createEquipmentCategory', categoryCrud);
