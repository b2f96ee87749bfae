import { organisations } from '#functions/organisations/definitions';
import { signedIn } from '#shared/auth/signed-in';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { createInvitation, createInvitationDocument } from './invitation-writes';
import { invitations } from './invitations';

export { createInvitationDocument as requestBody } from './invitation-writes';

/**
 * POST /v3/orgs/{org_id}/people/invitations: 201, and the e-mail with its token (shown nowhere else) is
 * sent; a pending invitation to the same address is 409; giving more than the inviter holds is 403.
 */
export const handler = jsonApiHandler('createInvitation', async (request) => {
  const document = parseDocument(createInvitationDocument, request.body);
  const { org_id } = request.params;
  const organisation = await readInScope(request.scope, organisations, org_id);
  const invitation = await createInvitation(
    request.scope,
    org_id,
    document,
    signedIn(request.principal),
    String(organisation.attributes.name),
  );
  return created(await resourceResponse(request, invitations, invitation));
});
