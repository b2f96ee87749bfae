import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { originalUrl } from './delivery';
import { readVisibleImage } from './reading';

/** GET /v3/images/{image_id}/original: 303 to a short-lived signed GET of the pinned original (view-original). */
export const handler = jsonApiHandler('downloadImageOriginal', async (request) => {
  const image = await readVisibleImage(request, request.params.image_id);
  return new Reply(303, undefined, { Location: await originalUrl(image) });
});
