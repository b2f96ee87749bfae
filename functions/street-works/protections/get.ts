import { getHandler } from '#shared/http/crud-handlers';
import { protections } from '#shared/resources/street-works/definitions';

/** GET /v3/street-works-protections/{protection_id} */
export const handler = getHandler('getStreetWorksProtection', protections, 'protection_id');
