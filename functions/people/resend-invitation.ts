import { organisations } from '#functions/organisations/definitions';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resendInvitation } from './invitation-writes';
import { invitations } from './invitations';

/** POST /v3/invitations/{invitation_id}/resend: a new token by e-mail, the old one void, a new lifetime. */
export const handler = jsonApiHandler('resendInvitation', async (request) => {
  const invitation = await readInScope(request.scope, invitations, request.params.invitation_id);
  const organisation = await readInScope(request.scope, organisations, invitation.org_id);
  return resourceResponse(
    request,
    invitations,
    await resendInvitation(request.scope, invitation, String(organisation.attributes.name)),
  );
});
