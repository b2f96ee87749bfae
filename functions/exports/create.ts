import { authorise, signedIn } from '#shared/auth/principal';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { exportsDefinition } from '#shared/resources/exports/definitions';
import { parseExport, runExport, withDownload } from '#shared/resources/exports/run';
import { resourceResponse } from '#shared/resources/single';

export { createExportDocument as requestBody } from '#shared/resources/exports/run';

/**
 * POST /v3/orgs/{org_id}/exports: the caller needs the list permission of the export's subject in the
 * organisation (403 otherwise); the file holds what that list would show them. 201 with `meta.download`.
 */
export const handler = jsonApiHandler('createExport', async (request) => {
  const principal = signedIn(request.principal);
  const parsed = parseExport(request.body);
  const scope = authorise(principal, parsed.subject.permission, request.params.org_id);
  const record = await runExport(scope, request.params.org_id, parsed, principal, request.baseUrl);
  return created(await resourceResponse(request, exportsDefinition, await withDownload(record)));
});
