import { jsonApiHandler } from '#shared/http/json-api-handler';
import { eventFeed } from './feed';

export { feedParameters as queryParameters } from './feed';

/** GET /v3/orgs/{org_id}/events: the organisation's change feed, after a cursor. */
export const handler = jsonApiHandler('listEvents', eventFeed);
