import { getHandler } from '#shared/http/crud-handlers';
import { permits } from '#shared/resources/street-works/definitions';

/** GET /v3/permits/{permit_id} */
export const handler = getHandler('getPermit', permits, 'permit_id');
