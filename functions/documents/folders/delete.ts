import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ValidationError } from '#shared/jsonapi/errors';
import { folders } from '#shared/resources/documents/definitions';
import { deleteFolder } from '#shared/resources/documents/folders';
import { readInScope } from '#shared/resources/single';

/**
 * DELETE /v3/folders/{folder_id}[?recursive=true]: 204; a folder with anything in it is 409 without
 * `recursive` (the route table lets only that query parameter through).
 */
export const handler = jsonApiHandler('deleteFolder', async (request) => {
  const { recursive = 'false' } = request.query;
  if (recursive !== 'true' && recursive !== 'false') {
    throw new ValidationError({ detail: 'recursive is true or false.', source: { parameter: 'recursive' } });
  }
  const folder = await readInScope(request.scope, folders, request.params.folder_id);
  await deleteFolder(request.scope, folder, recursive === 'true');
  return new Reply(204, undefined);
});
