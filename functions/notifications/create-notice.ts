import { signedIn } from '#shared/auth/signed-in';
import { toResourceObject } from '#shared/engine/serialise';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { createNotice } from './notice-writes';
import { notices } from './notices';

export { createNoticeDocument as requestBody } from './notice-writes';

/** POST /v3/orgs/{org_id}/notices: 201 with the notice as sent (its recipient count taken now). */
export const handler = jsonApiHandler('createNotice', async (request) => {
  const { body, params, scope } = request;
  const principal = signedIn(request.principal);
  const notice = await createNotice({ scope, orgId: params.org_id, principal }, body);
  return created(resourceDocument(request, toResourceObject(notices, notice, request.baseUrl)));
});
