import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { documents } from '../definitions';
import { addVersion } from '../documents/writes';
import { documentVersions } from '../versions/definition';

export { createVersionDocument as requestBody } from '../documents/writes';

/** POST /v3/documents/{document_id}/versions: a new version pending upload; 201 with `meta.upload`. */
export const handler = jsonApiHandler('createDocumentVersion', async (request) => {
  const document = await readInScope(request.scope, documents, request.params.document_id);
  const version = await addVersion(request.scope, document, request.body, request.principal);
  return created(await resourceResponse(request, documentVersions, version));
});
