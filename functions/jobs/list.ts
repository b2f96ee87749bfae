import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listPartition } from '#shared/resources/collection';
import { isJobCreator, jobs } from '#shared/resources/jobs/definitions';

/** GET /v3/orgs/{org_id}/jobs: the caller's own jobs of the last 30 days. */
export const handler = jsonApiHandler('listJobs', (request) =>
  listPartition(request, jobs, request.params.org_id, (r) => isJobCreator(r, request.principal)),
);
