import { updateHandler } from '#shared/engine/crud-handlers';
import { folders } from '../definitions';
import { updateFolder } from './writes';

export { updateFolderDocument as requestBody } from './writes';

/** PATCH /v3/folders/{folder_id}: rename, re-tie, or move under another `parent` (null: to the root). */
export const handler = updateHandler(
  'updateFolder',
  { definition: folders, update: updateFolder },
  'folder_id',
);
