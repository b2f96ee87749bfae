/**
 * An organisation's overrides of the notification rules: one record per organisation, found by the
 * organisation alone (its id a UUID v5 of the organisation's, so its events and audit history are its
 * own), absent until first changed. Stored: `overrides` by rule id; served beside them, `rules`: every
 * area's rule as it applies here (`rules/rule-overrides.ts`). Each change is a `notification-rules.updated`
 * event (created, the first time), and so an audit entry.
 */
import { uuidv5 } from '#shared/data/ids';
import { resourceKey } from '#shared/data/stored-resource';
import { notificationRules } from '#shared/engine/notification-rules';
import { defineResource } from '#shared/engine/resource-definition';
import { fillPath } from '#shared/http/path-template';
import { effectiveRules, type RuleOverride } from './rules/rule-overrides';

export const RULES_PATH = '/v3/orgs/{org_id}/notification-rules';

/** The namespace of rule settings' ids (RFC 9562 UUID v5): a fixed UUID of this service's own. */
const RULE_SETTINGS_IDS = 'a3c1f1d2-4b7e-4c55-9a0e-2f5d8e6b7c19';
export const ruleSettingsIdOf = (orgId: string) => uuidv5(orgId, RULE_SETTINGS_IDS);

export const ruleSettings = defineResource({
  type: 'notification-rules',
  tag: 'Notifications',
  names: { one: 'NotificationRules', many: 'NotificationRules' },
  itemPath: RULES_PATH,
  permission: 'notification-rules',
  served: async () => (await import('./rule-documents')).ruleSettingsAttributes(),
  // Answers add every rule as it applies here; the record (and so its events) keeps the overrides alone.
  derive: async (_scope, items) =>
    items.map((item) => ({
      ...item,
      attributes: {
        ...item.attributes,
        rules: effectiveRules(
          notificationRules(),
          (item.attributes.overrides ?? {}) as Record<string, RuleOverride>,
        ),
      },
    })),
  relationships: { organisation: false },
  keys: { record: { index: 'table', pk: 'ORG#{org_id}#notification-rules', sk: '{id}' } },
  keyOf: (orgId) => resourceKey(orgId, 'notification-rules', ruleSettingsIdOf(orgId)),
  selfPath: (record) => fillPath(RULES_PATH, { org_id: record.org_id }),
});
