import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import type { Route } from '#shared/http/route';
import { routeFile } from '#shared/http/route-file';

/**
 * GET /v3/specifications/openapi.json, openapi.yaml and changelog.md: the route's one file, as built at
 * synth time (`npm run openapi` writes the same into docs/), read once per function instance.
 */
export const handlerFor = (route: Route) => {
  const [path] = route.files ?? [];
  const media = route.answers?.media;
  if (!path || !media) throw new Error(`${route.id} names no file and media type to serve`);
  let content: string | undefined;
  return jsonApiHandler(route, async () => {
    content ??= routeFile(path).toString('utf8');
    const type = media.startsWith('text/') ? `${media}; charset=utf-8` : media;
    return new Reply(200, content, { 'Cache-Control': 'public, max-age=300' }, type);
  });
};
