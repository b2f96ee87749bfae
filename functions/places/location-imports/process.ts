import { jobs } from '#functions/jobs/definitions';
import { signedIn } from '#shared/auth/signed-in';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { accepted } from '#shared/http/reply';
import { locationImports } from '../definitions';
import { processUploadedImport } from '../import-requests';

/**
 * POST …/location-imports/{location_import_id}/process: runs an import whose file has been uploaded, now
 * (200 with the import record) when the file is up to 64 KiB, else as a job (202 with it).
 */
export const handler = jsonApiHandler('processLocationImport', async (request) => {
  const pending = await readInScope(request.scope, locationImports, request.params.location_import_id);
  const answer = await processUploadedImport(request.scope, pending, signedIn(request.principal));
  return answer.job
    ? accepted(await resourceResponse(request, jobs, answer.job))
    : resourceResponse(request, locationImports, answer.record);
});
