import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listVisibleImages } from './reading';

/** GET /v3/orgs/{org_id}/images: the images the caller may see, every filter index-backed. */
export const handler = jsonApiHandler('listImages', (request) => listVisibleImages(request));
