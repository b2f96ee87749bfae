import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { variantUrl } from './delivery';
import { readVisibleImage } from './reading';

/** GET /v3/images/{image_id}/variants/{variant}: 302 to a short-lived signed GET of thumb, medium or large. */
export const handler = jsonApiHandler('downloadImageVariant', async (request) => {
  const image = await readVisibleImage(request, request.params.image_id);
  return new Reply(302, undefined, { Location: await variantUrl(image, request.params.variant) });
});
