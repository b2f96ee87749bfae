import { createHandler } from '#shared/engine/crud-handlers';
import { folders } from '../definitions';
import { createFolder } from './writes';

export { createFolderDocument as requestBody } from './writes';

/** POST /v3/orgs/{org_id}/folders: a root folder, or a subfolder of `parent`; 201. */
export const handler = createHandler('createFolder', { definition: folders, create: createFolder });
