import { listHandler } from '#shared/http/crud-handlers';
import { folders } from '#shared/resources/documents/definitions';

/** GET /v3/orgs/{org_id}/folders: `filter[parent]`, `filter[scheme]`, `filter[name]`. */
export const handler = listHandler('listFolders', folders);
