import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { schemes } from '../definitions';
import { replaceScheme } from '../scheme-replace';

export { replaceSchemeDocument as requestBody } from '../scheme-replace';

/**
 * PUT /v3/orgs/{org_id}/projects/schemes/{scheme_id} (deprecated): full update. Its successor is PATCH on
 * the same path, with partial-update semantics; both headers say so (RFC 9745, RFC 8288).
 */
export const handler = jsonApiHandler('replaceScheme', async (request) => {
  const scheme = await readInScope(request.scope, schemes, request.params.scheme_id);
  const replaced = await replaceScheme(request.scope, scheme, request.body);
  const document = await resourceResponse(request, schemes, replaced);
  return new Reply(200, document, {
    Deprecation: '@1767225600',
    Link: `<${document.data.links?.self}>; rel="successor-version"; title="PATCH with partial-update semantics"`,
  });
});
