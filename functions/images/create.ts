import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { imageResponse } from './reading';
import { createImage } from './writes';

export { createImageDocument as requestBody } from './writes';

/** POST /v3/orgs/{org_id}/images: an image pending upload; 201 with `meta.upload` (size, type, SHA-256 signed). */
export const handler = jsonApiHandler('createImage', async (request) => {
  const image = await createImage(request.scope, request.params.org_id, request.body, request.principal);
  const document = await imageResponse(request, image);
  document.data.meta = { ...document.data.meta, upload: image.meta.upload };
  return created(document);
});
