import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { documents, folders } from '../definitions';
import { createDocument } from './writes';

export { createDocumentDocument as requestBody } from './writes';

/** POST /v3/folders/{folder_id}/documents: 201 with `meta.upload` (a presigned PUT for version 1). */
export const handler = jsonApiHandler('createDocument', async (request) => {
  const folder = await readInScope(request.scope, folders, request.params.folder_id);
  const document = await createDocument(request.scope, folder, request.body, request.principal);
  return created(await resourceResponse(request, documents, document));
});
