import * as z from 'zod';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { unsubscribe } from './preferences';
import { unsubscribeTarget } from './unsubscribe-requests';

/** RFC 8058's one-click body, form-encoded; a mail client sends nothing else. */
export const requestBody = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

/**
 * POST /v3/notification-unsubscribe/{token}: one-click unsubscribe (RFC 8058), no session: the sealed
 * token is the credential. E-mail off for the token's category in its organisation (`unsubscribe`).
 */
export const handler = jsonApiHandler('unsubscribeNotifications', async (request) => {
  const { userId, orgId, category } = await unsubscribeTarget(request.params.token);
  await unsubscribe(userId, orgId, category);
  return new Reply(204, undefined, { 'Cache-Control': 'no-store' });
});
