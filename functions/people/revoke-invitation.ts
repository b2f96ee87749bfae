import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { revokeInvitation } from './invitation-writes';
import { invitations } from './invitations';

/** POST /v3/invitations/{invitation_id}/revoke: its token stops working; the address may be invited again. */
export const handler = jsonApiHandler('revokeInvitation', async (request) => {
  const invitation = await readInScope(request.scope, invitations, request.params.invitation_id);
  return resourceResponse(request, invitations, await revokeInvitation(request.scope, invitation));
});
