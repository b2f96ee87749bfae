import { jsonApiHandler } from '#shared/http/json-api-handler';
import { MethodNotAllowedError, NotFoundError } from '#shared/jsonapi/errors';
import { fallbackRoute, matchRoute } from '#shared/routes';

/** Every request no route matches: 405 (with Allow) when the path exists under another method, else 404. */
export const handler = jsonApiHandler(fallbackRoute, async (request) => {
  const { allowed } = matchRoute(request.method, request.path);
  throw allowed.length > 0 ? new MethodNotAllowedError(allowed) : new NotFoundError('No such endpoint.');
});
