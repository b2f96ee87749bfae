import { signedIn } from '#shared/auth/signed-in';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { updateUser } from './user-writes';
import { users } from './users';

export { updateUserDocument as requestBody } from './user-writes';

/**
 * PATCH /v3/users/{user_id}: an administrator (`users:manage`) changes a user's profile, status or job
 * role; a user (`users:self`) changes their own profile only.
 */
export const handler = jsonApiHandler('updateUser', async (request) => {
  const user = await readInScope(request.scope, users, request.params.user_id);
  return resourceResponse(
    request,
    users,
    await updateUser(request.scope, user, request.body, signedIn(request.principal)),
  );
});
