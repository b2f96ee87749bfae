import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listCommentsOn } from './subject-index';

/** GET /v3/orgs/{org_id}/comments?filter[subject_id]=…: one record's comments, oldest first. */
export const handler = jsonApiHandler('listComments', (request) => listCommentsOn(request));
