import { signedInReply } from '#functions/auth/signed-in-reply';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { acceptInvitation, acceptInvitationDocument } from './invitation-writes';

export { acceptInvitationDocument as requestBody } from './invitation-writes';

/**
 * POST /v3/invitations/accept: the token alone authenticates. Answers the user, with a session: its token
 * in `meta.session` (for `X-Session-Token`) and in the `__Host-session` cookie.
 */
export const handler = jsonApiHandler('acceptInvitation', async (request) =>
  signedInReply(request, await acceptInvitation(parseDocument(acceptInvitationDocument, request.body))),
);
