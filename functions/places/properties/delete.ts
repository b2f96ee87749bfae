import { deleteHandler } from '#shared/http/crud-handlers';
import { propertyCrud } from '#shared/resources/places/locations';

/** DELETE /v3/orgs/{org_id}/governance/properties/{property_id}: 204 */
export const handler = deleteHandler('deleteProperty', propertyCrud, 'property_id');
