import { jobs } from '#functions/jobs/definitions';
import { authorise } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { accepted, created } from '#shared/http/reply';
import { exportsDefinition } from './definitions';
import { parseExport } from './request';
import { requestExport, withDownload } from './run';

export { createExportDocument as requestBody } from './request';

/**
 * POST /v3/orgs/{org_id}/exports: the caller needs the list permission of the export's subject in the
 * organisation (403 otherwise); the file holds what that list would show them. Up to 10,000 rows: 201
 * with the export and `meta.download`; more, or a cost roll-up: 202 with the job writing it.
 */
export const handler = jsonApiHandler('createExport', async (request) => {
  const principal = signedIn(request.principal);
  const parsed = parseExport(request.body);
  const scope = authorise(principal, parsed.subject.permission, request.params.org_id);
  const answer = await requestExport(scope, request.params.org_id, parsed, principal, request.baseUrl);
  return 'job' in answer
    ? accepted(await resourceResponse(request, jobs, answer.job))
    : created(await resourceResponse(request, exportsDefinition, await withDownload(answer.record)));
});
