import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { documents, documentVersions } from '../definitions';

/** GET /v3/documents/{document_id}/versions: every version kept, newest first. */
export const handler = jsonApiHandler('listDocumentVersions', (request) =>
  listChildren(request, documents, request.params.document_id, documentVersions),
);
