import { jsonApiHandler } from '#shared/http/json-api-handler';
import { searchProjects } from './search-query';

export { searchOptions as collectionOptions } from './search-query';

/** GET /v3/orgs/{org_id}/projects/search?filter[prefix]=…: schemes, work orders and operations by name or code prefix. */
export const handler = jsonApiHandler('searchProjects', (request) =>
  searchProjects(request.scope, request.params.org_id, request),
);
