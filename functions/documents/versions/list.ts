import { listChildren } from '#shared/engine/children';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { documents } from '../definitions';
import { documentVersions } from '../versions/definition';

/** GET /v3/documents/{document_id}/versions: every version kept, newest first. */
export const handler = jsonApiHandler('listDocumentVersions', (request) =>
  listChildren(request, documents, request.params.document_id, documentVersions),
);
