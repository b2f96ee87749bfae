import { createHandler } from '#shared/http/crud-handlers';
import { propertyCrud } from '#shared/resources/places/locations';

/** POST /v3/orgs/{org_id}/governance/properties: 201 */
export const handler = createHandler('createProperty', propertyCrud);
