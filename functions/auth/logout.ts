import { clearedSessionCookie, endSession } from '#shared/auth/sessions';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';

/** POST /v3/sessions/current/logout: the session that sent it ends, and the browser forgets its cookie. */
export const handler = jsonApiHandler('endSession', async (request) => {
  await endSession(request.headers, request.cookies);
  return new Reply(204, undefined, {}, undefined, [clearedSessionCookie()]);
});
