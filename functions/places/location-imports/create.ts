import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { locationImports } from '#shared/resources/places/definitions';
import { createImportDocument, startImport } from '#shared/resources/places/import-requests';
import { resourceResponse } from '#shared/resources/single';

export { createImportDocument as requestBody } from '#shared/resources/places/import-requests';

/**
 * POST /v3/orgs/{org_id}/governance/location-imports: an inline CSV (≤ 1 MiB) is processed now; a declared
 * upload answers with a presigned PUT in meta.upload. 201 with the import record either way.
 */
export const handler = jsonApiHandler('createLocationImport', async (request) => {
  const document = parseDocument(createImportDocument, request.body);
  const record = await startImport(request.scope, request.params.org_id, document, request.principal);
  return created(await resourceResponse(request, locationImports, record));
});
