import { createHandler } from '#shared/engine/crud-handlers';
import { folders } from '#shared/resources/documents/definitions';
import { createFolder } from '#shared/resources/documents/folders';

export { createFolderDocument as requestBody } from '#shared/resources/documents/folders';

/** POST /v3/orgs/{org_id}/folders: a root folder, or a subfolder of `parent`; 201. */
export const handler = createHandler('createFolder', { definition: folders, create: createFolder });
