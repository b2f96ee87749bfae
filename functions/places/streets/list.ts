import { listHandler } from '#shared/http/crud-handlers';
import { streets } from '#shared/resources/places/definitions';

/** GET /v3/governance/streets: streets of every organisation the caller may view. */
export const handler = listHandler('listStreets', streets);
