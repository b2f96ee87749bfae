import { fallbackRoute } from '#shared/http/fallback-route';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { registeredRoutes } from '#shared/http/route-table';
import { MethodNotAllowedError, NotFoundError } from '#shared/jsonapi/errors';
import { templateMatcher } from '#shared/route-matcher';

// The registered table (every route, whichever declarations the function loaded), matched as the router does.
let matchRoute: ReturnType<typeof templateMatcher> | undefined;

/** Every request no route matches: 405 (with Allow) when the path exists under another method, else 404. */
export const handler = jsonApiHandler(fallbackRoute, async (request) => {
  matchRoute ??= templateMatcher(registeredRoutes());
  const { allowed } = matchRoute(request.method, request.path);
  throw allowed.length > 0 ? new MethodNotAllowedError(allowed) : new NotFoundError('No such endpoint.');
});
