import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { ruleSettings, ruleSettingsIdOf } from './rule-settings';

/** The organisation's rule settings as stored, or (none changed yet) as they would be: no overrides. */
export const readRuleSettings = async (
  orgId: string,
): Promise<{ record: StoredResource; stored: boolean }> => {
  const stored = await getItem<StoredResource>(ruleSettings.keyOf(orgId, ''), true);
  return stored
    ? { record: stored, stored: true }
    : {
        record: newRecord(
          ruleSettings,
          orgId,
          { attributes: { overrides: {} } },
          new Date(),
          ruleSettingsIdOf(orgId),
        ),
        stored: false,
      };
};

/** GET /v3/orgs/{org_id}/notification-rules: every rule as it applies here, and the organisation's overrides. */
export const handler = jsonApiHandler('getNotificationRules', async (request) => {
  const { record } = await readRuleSettings(request.params.org_id);
  return resourceResponse(request, ruleSettings, record);
});
