import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ConflictError } from '#shared/jsonapi/errors';
import { documents } from '../definitions';
import { documentVersions } from '../versions/definition';
import { downloadUrl } from './download-url';

/** GET /v3/documents/{document_id}/content: 303 to a presigned GET of the current version. */
export const handler = jsonApiHandler('downloadDocument', async (request) => {
  const document = await readInScope(request.scope, documents, request.params.document_id);
  const current = document.rels.current_version;
  if (typeof current !== 'string')
    throw new ConflictError('Nothing has been uploaded for this document yet.');
  const version = await readInScope(request.scope, documentVersions, current);
  return new Reply(303, undefined, { Location: await downloadUrl(document, version) });
});
