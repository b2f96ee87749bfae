import { updateHandler } from '#shared/engine/crud-handlers';
import { documents } from '#shared/resources/documents/definitions';
import { updateDocument } from '#shared/resources/documents/documents';

export { updateDocumentDocument as requestBody } from '#shared/resources/documents/documents';

/** PATCH /v3/documents/{document_id}: rename, or move to another folder. */
export const handler = updateHandler(
  'updateDocument',
  { definition: documents, update: updateDocument },
  'document_id',
);
