import { listKept } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { jobs, keptJobs } from './definitions';

/** GET /v3/orgs/{org_id}/jobs: the caller's own jobs of the last 30 days. */
export const handler = jsonApiHandler('listJobs', (request) =>
  listKept(request, jobs, keptJobs(request.params.org_id ?? '', request.principal?.id ?? '')),
);
