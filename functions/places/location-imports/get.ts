import { getHandler } from '#shared/http/crud-handlers';
import { locationImports } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/location-imports/{location_import_id} */
export const handler = getHandler('getLocationImport', locationImports, 'location_import_id');
