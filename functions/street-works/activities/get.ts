import { getHandler } from '#shared/http/crud-handlers';
import { streetWorks } from '#shared/resources/street-works/definitions';

/** GET /v3/street-works/{street_work_id} */
export const handler = getHandler('getStreetWork', streetWorks, 'street_work_id');
