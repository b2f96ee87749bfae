import { jsonApiHandler } from '#shared/http/json-api-handler';
import { imageResponse, readVisibleImage } from './reading';
import { updateImage } from './writes';

export { updateImageDocument as requestBody } from './writes';

/** PATCH /v3/images/{image_id}: caption, subject, pair, location_visibility. */
export const handler = jsonApiHandler('updateImage', async (request) => {
  const image = await readVisibleImage(request, request.params.image_id);
  return imageResponse(request, await updateImage(request.scope, image, request.body));
});
