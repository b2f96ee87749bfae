import { jsonApiHandler } from '#shared/http/json-api-handler';
import { imageResponse, readVisibleImage } from './reading';

/** GET /v3/images/{image_id}: the image, its coordinates as the caller may see them, its pair compared. */
export const handler = jsonApiHandler('getImage', async (request) =>
  imageResponse(request, await readVisibleImage(request, request.params.image_id)),
);
