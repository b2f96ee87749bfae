import { getHandler } from '#shared/http/crud-handlers';
import { properties } from '#shared/resources/places/definitions';

/** GET /v3/orgs/{org_id}/governance/properties/{property_id} */
export const handler = getHandler('getProperty', properties, 'property_id');
