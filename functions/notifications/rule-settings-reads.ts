import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { toStoredResource } from '#shared/engine/stored';
import { ruleSettings, ruleSettingsIdOf } from './rule-settings';

/** The organisation's rule settings as stored, or (none changed yet) as they would be: no overrides. */
export const readRuleSettings = async (
  orgId: string,
): Promise<{ record: StoredResource; stored: boolean }> => {
  const stored = await getItem<StoredResource>(ruleSettings.keyOf(orgId, ''), true);
  const now = new Date().toISOString();
  return stored
    ? { record: stored, stored: true }
    : {
        record: toStoredResource(ruleSettings, {
          orgId,
          id: ruleSettingsIdOf(orgId),
          attributes: { overrides: {} },
          meta: { created_at: now, updated_at: now },
          rels: {},
        }),
        stored: false,
      };
};
