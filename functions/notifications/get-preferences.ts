import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resourceDocument } from '#shared/jsonapi/document';
import { callerUserId } from './caller-user';
import { preferencesResource } from './preference-resource';
import { readPreferences } from './preferences';

/** GET /v3/notification-preferences/{org_id}: the caller's own, the defaults where none are set. */
export const handler = jsonApiHandler('getNotificationPreferences', async (request) => {
  const orgId = request.params.org_id;
  const { preferences } = await readPreferences(callerUserId(request.principal), orgId);
  return resourceDocument(request, preferencesResource(orgId, preferences, request.baseUrl));
});
