import { deleteHandler } from '#shared/engine/crud-handlers';
import { documents } from '../definitions';
import { deleteDocument } from './writes';

/** DELETE /v3/documents/{document_id}: the document, its versions and their files; 204. */
export const handler = deleteHandler(
  'deleteDocument',
  { definition: documents, remove: deleteDocument },
  'document_id',
);
