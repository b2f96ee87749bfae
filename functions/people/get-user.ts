import { getHandler } from '#shared/http/crud-handlers';
import { users } from '#shared/resources/users';

/** GET /v3/users/{user_id}: a user of one of the organisations where the caller holds users:view. */
export const handler = getHandler('getUser', users, 'user_id');
