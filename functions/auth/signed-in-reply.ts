/**
 * The answer to a way in (an accepted invitation, an SSO callback): the user, with the session's token in
 * `meta.session` (for `X-Session-Token` clients) and in the `__Host-session` cookie.
 */

import { users } from '#functions/people/users';
import { type ResourceRequest, resourceResponse } from '#shared/engine/single';
import { Reply } from '#shared/http/reply';
import type { QueryParameters } from '#shared/jsonapi/collection-query';
import type { SignedIn } from './signed-in';

export const signedInReply = async (
  request: ResourceRequest,
  { user, scope, session }: SignedIn,
  /** The query naming includes: none where the query is another protocol's (an SSO callback's). */
  query?: QueryParameters,
): Promise<Reply> => {
  const document = await resourceResponse({ ...request, scope }, users, user, query);
  return new Reply(
    200,
    { ...document, meta: { session: { token: session.token, expires_at: session.expiresAt.toISOString() } } },
    {},
    undefined,
    [session.cookie],
  );
};
