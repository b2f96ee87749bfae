import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import { resourceDocument } from '#shared/jsonapi/document';
import { inboxOwner } from './inbox-owner';
import { readState } from './inbox-state';
import { countsOf } from './rules/inbox-state';

/**
 * GET /v3/notifications/counts: the caller's unseen and unread envelopes, and each category's, in the
 * organisations they belong to: one GetItem of the inbox's state item, whatever the inbox's size.
 */
export const handler = jsonApiHandler('getNotificationCounts', async (request) => {
  const owner = inboxOwner(request);
  const counts = countsOf(await readState(owner.userId), owner.organisations, Date.now());
  return resourceDocument(request, {
    type: 'notification-counts',
    id: owner.userId,
    attributes: { ...counts },
    meta: {},
    relationships: {},
    links: { self: `${request.baseUrl}${routePath('getNotificationCounts')}` },
  });
});
