import { listHandler } from '#shared/http/crud-handlers';
import { properties } from '#shared/resources/places/definitions';

/** GET /v3/governance/properties: every organisation the caller may view; `filter[location.box.*]` reads only nearby cells. */
export const handler = listHandler('listProperties', properties);
