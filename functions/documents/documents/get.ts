import { getHandler } from '#shared/http/crud-handlers';
import { documents } from '#shared/resources/documents/definitions';

/** GET /v3/documents/{document_id} */
export const handler = getHandler('getDocument', documents, 'document_id');
