import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resourceDocument } from '#shared/jsonapi/document';
import { UnprocessableContentError } from '#shared/jsonapi/errors';
import { pointer } from '#shared/jsonapi/pointer';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { callerUserId } from './caller-user';
import { updatePreferencesDocument } from './preference-documents';
import { preferencesResource } from './preference-resource';
import { changePreferences } from './preferences';
import { type Refusal, refusals } from './rules/preferences';

export { updatePreferencesDocument as requestBody } from './preference-documents';

/**
 * PATCH /v3/notification-preferences/{org_id}: the caller changes their own; what it leaves out stays.
 * A change that would mute safety notifications is 422, each refusal with its pointer, nothing written.
 */
export const handler = jsonApiHandler('updateNotificationPreferences', async (request) => {
  const userId = callerUserId(request.principal);
  const orgId = request.params.org_id;
  const { data } = parseDocument(updatePreferencesDocument, request.body);
  assertSameId(data.id, orgId);
  const refused = refusals(data.attributes);
  if (refused.length > 0) throw refusedError(refused);
  const preferences = await changePreferences(userId, orgId, data.attributes);
  return resourceDocument(request, preferencesResource(orgId, preferences, request.baseUrl));
});

/** 422: the change is well formed but would mute what may not be muted; one error per refusal. */
const refusedError = (refused: readonly Refusal[]) =>
  new UnprocessableContentError(
    refused.map(({ path, reason }) => ({
      pointer: pointer(['data', 'attributes', ...path]),
      detail: reason,
    })),
    'NOTIFICATIONS.001',
  );
