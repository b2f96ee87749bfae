import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { notifications } from './definitions';
import { inboxOwner } from './inbox-owner';
import { asServed } from './inbox-state';
import { changeEnvelope } from './inbox-writes';
import { updateNotificationDocument } from './notification-writes';

export { updateNotificationDocument as requestBody } from './notification-writes';

/** PATCH /v3/notifications/{id}: the caller's own envelope's `state`, `saved` and `archived`. */
export const handler = jsonApiHandler('updateNotification', async (request) => {
  const owner = inboxOwner(request);
  const { data } = parseDocument(updateNotificationDocument, request.body);
  assertSameId(data.id, request.params.notification_id);
  const { envelope, state } = await changeEnvelope(owner, data.id, data.attributes ?? {});
  return resourceResponse(request, notifications, asServed(envelope, state));
});
