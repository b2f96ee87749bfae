import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ValidationError } from '#shared/jsonapi/errors';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { folders } from '../definitions';
import { deleteFolder } from './writes';

export const queryParameters = {
  recursive: {
    description:
      '`true` deletes the folder with everything in it; without it, a folder that holds anything is 409.',
    schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
  },
} satisfies OwnQueryParameters;

/**
 * DELETE /v3/folders/{folder_id}[?recursive=true]: 204; a folder with anything in it is 409 without
 * `recursive` (the route table lets only that query parameter through).
 */
export const handler = jsonApiHandler('deleteFolder', async (request) => {
  const { recursive = queryParameters.recursive.schema.default } = request.query;
  if (!queryParameters.recursive.schema.enum.includes(recursive)) {
    throw new ValidationError({ detail: 'recursive is true or false.', source: { parameter: 'recursive' } });
  }
  const folder = await readInScope(request.scope, folders, request.params.folder_id);
  await deleteFolder(request.scope, folder, recursive === 'true');
  return new Reply(204, undefined);
});
