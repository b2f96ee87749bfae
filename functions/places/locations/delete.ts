import { deleteHandler } from '#shared/http/crud-handlers';
import { locationCrud } from '#shared/resources/places/locations';

/** DELETE /v3/orgs/{org_id}/governance/locations/{location_id}: 204 */
export const handler = deleteHandler('deleteLocation', locationCrud, 'location_id');
