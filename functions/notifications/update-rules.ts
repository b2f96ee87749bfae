import { isPermission } from '#shared/domain/permissions';
import { notificationRules } from '#shared/engine/notification-rules';
import { changedRecord, createRecord, replaceRecord } from '#shared/engine/record-writes';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { UnprocessableContentError } from '#shared/jsonapi/errors';
import { pointer } from '#shared/jsonapi/pointer';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { updateRulesDocument } from './rule-documents';
import { ruleSettings } from './rule-settings';
import { readRuleSettings } from './rule-settings-reads';
import { overrideRefusals, type RuleOverride } from './rules/rule-overrides';

export { updateRulesDocument as requestBody } from './rule-documents';

/**
 * PATCH /v3/orgs/{org_id}/notification-rules (`notification-rules:manage`): overrides by rule id, each
 * replacing the rule's previous override (null: back to the default). An unknown rule id, relationship or
 * permission is 422 with its pointer, and nothing is written; the change is one record, one event.
 */
export const handler = jsonApiHandler('updateNotificationRules', async (request) => {
  const orgId = request.params.org_id;
  const { data } = parseDocument(updateRulesDocument, request.body);
  const { record, stored } = await readRuleSettings(orgId);
  assertSameId(data.id, record.id);
  const { overrides } = data.attributes;
  const refused = overrideRefusals(notificationRules(), overrides, isPermission);
  if (refused.length > 0)
    throw new UnprocessableContentError(
      refused.map(({ path, reason }) => ({
        pointer: pointer(['data', 'attributes', ...path]),
        detail: reason,
      })),
      'NOTIFICATIONS.002',
    );
  const kept = { ...(record.attributes.overrides as Record<string, RuleOverride>) };
  for (const [id, override] of Object.entries(overrides)) {
    if (override === null) delete kept[id];
    else kept[id] = override;
  }
  const written = stored
    ? await replaceRecord(request.scope, ruleSettings, {
        replace: changedRecord(ruleSettings, record, { attributes: { overrides: kept } }),
        was: record,
      })
    : await createRecord(request.scope, ruleSettings, { ...record, attributes: { overrides: kept } });
  return resourceResponse(request, ruleSettings, written);
});
