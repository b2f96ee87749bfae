import { createHandler } from '#shared/http/crud-handlers';
import { locationCrud } from '#shared/resources/places/locations';

/** POST /v3/orgs/{org_id}/governance/locations: 201 */
export const handler = createHandler('createLocation', locationCrud);
