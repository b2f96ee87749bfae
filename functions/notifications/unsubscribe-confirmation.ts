import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import { Reply } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { asksForHtml } from '#shared/jsonapi/media-type';
import { readPreferences } from './preferences';
import { UNMUTED } from './rules/preferences';
import { HTML_MEDIA_TYPE, unsubscribePage } from './unsubscribe-pages';
import { organisationName, unsubscribeTarget } from './unsubscribe-requests';

/** The token is its user's credential for this one change: no cache keeps what answers it. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * GET /v3/notification-unsubscribe/{token}: what the link would stop, changing nothing: mail scanners
 * follow links in e-mails; only the POST unsubscribes. A browser (asking for `text/html`) is answered a
 * page with the button that posts; an API client, a `notification-unsubscribes` resource (its id the token).
 */
export const handler = jsonApiHandler('getNotificationUnsubscribe', async (request) => {
  const token = request.params.token ?? '';
  const { userId, orgId, category } = await unsubscribeTarget(token);
  const { preferences } = await readPreferences(userId, orgId);
  const email = preferences.channels[category].email;
  const path = routePath('getNotificationUnsubscribe', { token });
  if (asksForHtml(request.headers.accept)) {
    const organisation = await organisationName(orgId);
    const html = unsubscribePage({
      category,
      organisation,
      email,
      mutable: category !== UNMUTED,
      action: path,
    });
    return new Reply(200, html, NO_STORE, HTML_MEDIA_TYPE);
  }
  const document = resourceDocument(request, {
    type: 'notification-unsubscribes',
    id: token,
    attributes: { category, organisation: orgId, email },
    meta: {},
    relationships: {},
    links: { self: `${request.baseUrl}${path}` },
  });
  return new Reply(200, document, NO_STORE);
});
