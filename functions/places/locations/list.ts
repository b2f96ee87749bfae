import { listHandler } from '#shared/http/crud-handlers';
import { locations } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/locations (filters include the `location` bounding box) */
export const handler = listHandler('listLocations', locations);
