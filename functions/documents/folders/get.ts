import { getHandler } from '#shared/http/crud-handlers';
import { folders } from '#shared/resources/documents/definitions';

/** GET /v3/folders/{folder_id} (spec): meta document_count, size and path derived on read. */
export const handler = getHandler('getFolder', folders, 'folder_id');
