import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { UnprocessableContentError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { acknowledgeEnvelope } from './acknowledge';
import { notifications } from './definitions';
import { inboxOwner } from './inbox-owner';
import { asServed } from './inbox-state';
import { changeEnvelope } from './inbox-writes';
import { updateNotificationDocument } from './notification-writes';

export { updateNotificationDocument as requestBody } from './notification-writes';

/**
 * PATCH /v3/notifications/{id}: the caller's own envelope's `state`, `saved` and `archived`, and its
 * acknowledgement (`acknowledged: true`, only where it requires one).
 */
export const handler = jsonApiHandler('updateNotification', async (request) => {
  const owner = inboxOwner(request);
  const { data } = parseDocument(updateNotificationDocument, request.body);
  assertSameId(data.id, request.params.notification_id);
  const { acknowledged, ...change } = data.attributes ?? {};
  if (acknowledged === false)
    throw new UnprocessableContentError([
      { pointer: '/data/attributes/acknowledged', detail: 'An acknowledgement cannot be withdrawn.' },
    ]);
  const { envelope, state } = acknowledged
    ? await acknowledgeEnvelope(owner, request.scope, data.id, change)
    : await changeEnvelope(owner, data.id, change);
  return resourceResponse(request, notifications, asServed(envelope, state));
});
