import { jsonApiHandler } from '#shared/http/json-api-handler';
import { locationImports } from '#shared/resources/places/definitions';
import { processUploadedImport } from '#shared/resources/places/import-requests';
import { readInScope, resourceResponse } from '#shared/resources/single';

/** POST …/location-imports/{location_import_id}/process: runs an import whose file has been uploaded. */
export const handler = jsonApiHandler('processLocationImport', async (request) => {
  const pending = await readInScope(request.scope, locationImports, request.params.location_import_id);
  return resourceResponse(
    request,
    locationImports,
    await processUploadedImport(request.scope, pending, request.principal),
  );
});
