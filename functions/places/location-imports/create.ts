import { jobs } from '#functions/jobs/definitions';
import { signedIn } from '#shared/auth/signed-in';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { accepted, created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { locationImports } from '../definitions';
import { createImportDocument, startImport } from '../import-requests';

export { createImportDocument as requestBody } from '../import-requests';

/**
 * POST /v3/orgs/{org_id}/governance/location-imports: an inline CSV of up to 64 KiB is processed now (201
 * with the import record); a larger one (up to the 1 MiB body limit) answers 202 with the job importing
 * it. A declared upload answers 201 with a presigned PUT in meta.upload.
 */
export const handler = jsonApiHandler('createLocationImport', async (request) => {
  const document = parseDocument(createImportDocument, request.body);
  const answer = await startImport(
    request.scope,
    request.params.org_id,
    document,
    signedIn(request.principal),
  );
  return answer.job
    ? accepted(await resourceResponse(request, jobs, answer.job))
    : created(await resourceResponse(request, locationImports, answer.record));
});
