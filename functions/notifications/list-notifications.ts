import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { notifications } from './definitions';
import { inboxOwner } from './inbox-owner';
import { inboxOptions, readInboxPage } from './inbox-page';

export { inboxOptions as collectionOptions } from './inbox-page';

/**
 * GET /v3/notifications: the caller's own inbox, newest first by arrival, across their organisations, by
 * cursor only: a request without `page[cursor]` reads the first page. No offsets and no total: counting
 * the inbox's envelopes as listed would read them all (its counts are `GET /v3/notifications/counts`), and
 * an offset page without a total could link no next page.
 */
export const handler = jsonApiHandler('listNotifications', (request) => {
  const owner = inboxOwner(request);
  return listResources(
    request,
    { ...notifications, collection: inboxOptions },
    (query) => readInboxPage(owner, query),
    { 'page[cursor]': '', ...request.query },
  );
});
