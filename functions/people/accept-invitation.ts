import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { acceptInvitation, acceptInvitationDocument } from '#shared/resources/people/invitation-writes';
import { users } from '#shared/resources/people/users';
import { resourceResponse } from '#shared/resources/single';

export { acceptInvitationDocument as requestBody } from '#shared/resources/people/invitation-writes';

/**
 * POST /v3/invitations/accept: the token alone authenticates. Answers the user, with a session: its token
 * in `meta.session` (for `X-Session-Token`) and in the `__Host-session` cookie.
 */
export const handler = jsonApiHandler('acceptInvitation', async (request) => {
  const { user, scope, session } = await acceptInvitation(
    parseDocument(acceptInvitationDocument, request.body),
  );
  const document = await resourceResponse({ ...request, scope }, users, user);
  return new Reply(
    200,
    { ...document, meta: { session: { token: session.token, expires_at: session.expiresAt.toISOString() } } },
    {},
    undefined,
    [session.cookie],
  );
});
