import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { readVisibleImage } from './reading';
import { deleteImage } from './writes';

/** DELETE /v3/images/{image_id}: soft; the original is kept for the legal hold (`writes.ts`); 204. */
export const handler = jsonApiHandler('deleteImage', async (request) => {
  await deleteImage(request.scope, await readVisibleImage(request, request.params.image_id));
  return new Reply(204, undefined);
});
