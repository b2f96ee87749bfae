import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { documents } from '../definitions';
import { downloadUrl } from '../documents/download-url';
import { documentVersions } from '../versions/definition';

/** GET /v3/document-versions/{version_id}/content: 303 to a presigned GET of that version. */
export const handler = jsonApiHandler('downloadDocumentVersion', async (request) => {
  const version = await readInScope(request.scope, documentVersions, request.params.version_id);
  const document = await readInScope(request.scope, documents, String(version.rels.document));
  return new Reply(303, undefined, { Location: await downloadUrl(document, version) });
});
