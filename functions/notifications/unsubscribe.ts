import * as z from 'zod';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { asksForHtml } from '#shared/jsonapi/media-type';
import { unsubscribe } from './preferences';
import { HTML_MEDIA_TYPE, unsubscribedPage } from './unsubscribe-pages';
import { organisationName, unsubscribeTarget } from './unsubscribe-requests';

/** RFC 8058's one-click body, form-encoded; a mail client sends nothing else, nor does the page's form. */
export const requestBody = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

/**
 * POST /v3/notification-unsubscribe/{token}: one-click unsubscribe (RFC 8058), no session: the sealed
 * token is the credential. E-mail off for the token's category in its organisation (`unsubscribe`). A mail
 * client's post is answered 204; the link's page posts its form as a browser does, asking for HTML, and is
 * answered a page saying what was done.
 */
export const handler = jsonApiHandler('unsubscribeNotifications', async (request) => {
  const { userId, orgId, category } = await unsubscribeTarget(request.params.token);
  const mutable = await unsubscribe(userId, orgId, category);
  if (!asksForHtml(request.headers.accept)) return new Reply(204, undefined, { 'Cache-Control': 'no-store' });
  const page = unsubscribedPage({ category, organisation: await organisationName(orgId), mutable });
  return new Reply(200, page, { 'Cache-Control': 'no-store' }, HTML_MEDIA_TYPE);
});
