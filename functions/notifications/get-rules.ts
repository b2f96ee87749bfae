import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { ruleSettings } from './rule-settings';
import { readRuleSettings } from './rule-settings-reads';

/** GET /v3/orgs/{org_id}/notification-rules: every rule as it applies here, and the organisation's overrides. */
export const handler = jsonApiHandler('getNotificationRules', async (request) => {
  const { record } = await readRuleSettings(request.params.org_id);
  return resourceResponse(request, ruleSettings, record);
});
