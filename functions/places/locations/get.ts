import { getHandler } from '#shared/http/crud-handlers';
import { locations } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/locations/{location_id} */
export const handler = getHandler('getLocation', locations, 'location_id');
