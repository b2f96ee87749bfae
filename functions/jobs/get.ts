import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { NotFoundError } from '#shared/jsonapi/errors';
import { isJobCreator, jobs } from './definitions';

/** GET /v3/jobs/{job_id}: the creator's own job, its status and progress as they stand; anyone else 404. */
export const handler = jsonApiHandler('getJob', async (request) => {
  const record = await readInScope(request.scope, jobs, request.params.job_id);
  if (!isJobCreator(record, request.principal)) throw new NotFoundError();
  return resourceResponse(request, jobs, record);
});
