import { updateHandler } from '#shared/engine/crud-handlers';
import { folders } from '#shared/resources/documents/definitions';
import { updateFolder } from '#shared/resources/documents/folders';

export { updateFolderDocument as requestBody } from '#shared/resources/documents/folders';

/** PATCH /v3/folders/{folder_id}: rename, re-tie, or move under another `parent` (null: to the root). */
export const handler = updateHandler(
  'updateFolder',
  { definition: folders, update: updateFolder },
  'folder_id',
);
