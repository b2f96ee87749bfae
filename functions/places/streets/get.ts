import { getHandler } from '#shared/http/crud-handlers';
import { streets } from '#shared/resources/places/definitions';

/** GET /v3/streets/{street_id} */
export const handler = getHandler('getStreet', streets, 'street_id');
