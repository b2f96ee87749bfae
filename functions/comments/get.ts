import { getHandler } from '#shared/http/crud-handlers';
import { comments } from '#shared/resources/comments/definitions';

/** GET /v3/comments/{comment_id} */
export const handler = getHandler('getComment', comments, 'comment_id');
