import { updateHandler } from '#shared/engine/crud-handlers';
import { documents } from '../definitions';
import { updateDocument } from './writes';

export { updateDocumentDocument as requestBody } from './writes';

/** PATCH /v3/documents/{document_id}: rename, or move to another folder. */
export const handler = updateHandler(
  'updateDocument',
  { definition: documents, update: updateDocument },
  'document_id',
);
