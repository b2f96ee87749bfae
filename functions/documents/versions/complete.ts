import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { documents, documentVersions } from '../definitions';
import { completeVersion } from '../documents/writes';

/** POST /v3/document-versions/{version_id}/complete: checks the upload; answers the document. */
export const handler = jsonApiHandler('completeDocumentVersion', async (request) => {
  const version = await readInScope(request.scope, documentVersions, request.params.version_id);
  return resourceResponse(request, documents, await completeVersion(request.scope, version));
});
