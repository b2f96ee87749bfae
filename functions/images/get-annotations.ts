import { jsonApiHandler } from '#shared/http/json-api-handler';
import { annotationsAnswer } from './annotations-answer';
import { readVisibleImage } from './reading';

/** GET /v3/images/{image_id}/annotations: the vector layer, and whether the variants carry it yet. */
export const handler = jsonApiHandler('getImageAnnotations', async (request) =>
  annotationsAnswer(await readVisibleImage(request, request.params.image_id)),
);
