import { updateHandler } from '#shared/http/crud-handlers';
import { locationCrud } from '#shared/resources/places/locations';

/** PATCH /v3/orgs/{org_id}/governance/locations/{location_id} */
export const handler = updateHandler('updateLocation', locationCrud, 'location_id');
