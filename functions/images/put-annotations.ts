import { jsonApiHandler } from '#shared/http/json-api-handler';
import { replaceAnnotations } from './annotations';
import { annotationsAnswer } from './annotations-answer';
import { readVisibleImage } from './reading';

export { annotationsDocument as requestBody } from './annotations';

/** PUT /v3/images/{image_id}/annotations: the whole layer replaced; the variants are drawn again (`image.annotated`). */
export const handler = jsonApiHandler('replaceImageAnnotations', async (request) => {
  const image = await readVisibleImage(request, request.params.image_id);
  return annotationsAnswer(await replaceAnnotations(request.scope, image, request.body));
});
