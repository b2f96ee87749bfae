import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { readAttendances } from './attendance-reads';
import { siteAttendances } from './definitions';
import { registerQuery } from './register';

export const queryParameters = {
  'filter[day]': {
    description:
      'A day’s register: attendances signed in that day (YYYY-MM-DD) in the organisation’s time zone (its settings).',
    schema: { type: 'string', format: 'date' },
  },
} satisfies OwnQueryParameters;

/**
 * GET /v3/orgs/{org_id}/site-attendances: the attendances, or a day's register (`filter[day]`); who is on a
 * site now is `filter[on_site]=true` with `filter[scheme]` or `filter[location]` (a sparse index: one Query).
 */
export const handler = jsonApiHandler('listSiteAttendances', async (request) =>
  listResources(
    request,
    siteAttendances,
    (query) => readAttendances(request.scope, request.params.org_id, query),
    await registerQuery(request.scope, request.params.org_id, request.query),
  ),
);
