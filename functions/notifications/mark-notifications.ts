import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import { resourceDocument } from '#shared/jsonapi/document';
import { parseDocument } from '#shared/jsonapi/request-document';
import { inboxOwner } from './inbox-owner';
import { markByIds, markThrough } from './inbox-writes';
import { markDocument } from './notification-writes';
import { countsOf } from './rules/inbox-state';

export { markDocument as requestBody } from './notification-writes';

/**
 * POST /v3/notifications/mark: marks the caller's envelopes seen, read or archived, by ids (at most 100)
 * or through a position (one write of the watermark); answers the inbox's counts after it.
 */
export const handler = jsonApiHandler('markNotifications', async (request) => {
  const owner = inboxOwner(request);
  const { action, ids, through } = parseDocument(markDocument, request.body).data.attributes;
  const state = ids
    ? await markByIds(owner, action, ids)
    : await markThrough(owner, action, through === 'now' || through === undefined ? 'now' : { id: through });
  return resourceDocument(request, {
    type: 'notification-counts',
    id: owner.userId,
    attributes: { ...countsOf(state, owner.organisations, Date.now()) },
    meta: {},
    relationships: {},
    links: { self: `${request.baseUrl}${routePath('getNotificationCounts')}` },
  });
});
