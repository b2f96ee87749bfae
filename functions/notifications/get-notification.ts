import { live } from '#shared/data/repository';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { notifications } from './definitions';
import { inboxOwner, ownEnvelope } from './inbox-owner';
import { asServed, readEnvelope, readState } from './inbox-state';

/** GET /v3/notifications/{id}: one of the caller's own envelopes; anyone else's, or one past its 90 days, is 404. */
export const handler = jsonApiHandler('getNotification', async (request) => {
  const owner = inboxOwner(request);
  const [envelope, state] = await Promise.all([
    readEnvelope(owner.userId, request.params.notification_id),
    readState(owner.userId),
  ]);
  const shown = envelope && live(envelope) ? envelope : null;
  return resourceResponse(request, notifications, asServed(ownEnvelope(owner, shown), state));
});
