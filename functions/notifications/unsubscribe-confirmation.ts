import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { readPreferences } from './preferences';
import { unsubscribeTarget } from './unsubscribe-requests';

export { unsubscribeAnswer as responseBody } from './unsubscribe-requests';

/**
 * GET /v3/notification-unsubscribe/{token}: what the link would stop, changing nothing (mail scanners
 * follow links in e-mails; only the POST unsubscribes).
 */
export const handler = jsonApiHandler('getNotificationUnsubscribe', async (request) => {
  const { userId, orgId, category } = await unsubscribeTarget(request.params.token);
  const { preferences } = await readPreferences(userId, orgId);
  return new Reply(
    200,
    { category, organisation: orgId, email: preferences.channels[category].email },
    { 'Cache-Control': 'no-store' },
    'application/json',
  );
});
