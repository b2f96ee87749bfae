import { updateHandler } from '#shared/http/crud-handlers';
import { propertyCrud } from '#shared/resources/places/locations';

/** PATCH /v3/orgs/{org_id}/governance/properties/{property_id} */
export const handler = updateHandler('updateProperty', propertyCrud, 'property_id');
