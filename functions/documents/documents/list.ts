import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { documents, folders } from '../definitions';

/** GET /v3/folders/{folder_id}/documents: the documents directly in the folder. */
export const handler = jsonApiHandler('listDocuments', (request) =>
  listChildren(request, folders, request.params.folder_id, documents),
);
