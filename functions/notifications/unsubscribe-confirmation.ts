import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import { Reply } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { readPreferences } from './preferences';
import { unsubscribeTarget } from './unsubscribe-requests';

/**
 * GET /v3/notification-unsubscribe/{token}: what the link would stop (`notification-unsubscribes`, its id
 * the token), changing nothing: mail scanners follow links in e-mails; only the POST unsubscribes.
 */
export const handler = jsonApiHandler('getNotificationUnsubscribe', async (request) => {
  const token = request.params.token ?? '';
  const { userId, orgId, category } = await unsubscribeTarget(token);
  const { preferences } = await readPreferences(userId, orgId);
  const document = resourceDocument(request, {
    type: 'notification-unsubscribes',
    id: token,
    attributes: { category, organisation: orgId, email: preferences.channels[category].email },
    meta: {},
    relationships: {},
    links: { self: `${request.baseUrl}${routePath('getNotificationUnsubscribe', { token })}` },
  });
  // The token is its user's credential for this one change: no cache keeps it.
  return new Reply(200, document, { 'Cache-Control': 'no-store' });
});
