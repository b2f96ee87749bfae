/**
 * An organisation's notification rules (pure): every area's shipped rule, with the organisation's
 * override of it applied, and why an override may not be made. An override names only what exists: a
 * rule id shipped by an area, relationships of that rule's subject naming users, permissions in the
 * catalogue. It grants nothing: naming a permission makes its holders recipients, never holders, and each
 * recipient is told only what they may read, so no override gives anyone more than they hold.
 */
import type { CataloguedRule, NotificationSeverity, RecipientSpec } from '#shared/domain/notification-rules';

/** What an organisation may change of a rule. */
export interface RuleOverride {
  enabled?: boolean;
  recipients?: readonly RecipientSpec[];
  severity?: NotificationSeverity;
  requires_ack?: boolean;
}

/** A rule as it applies in one organisation, and whether the organisation changed it. */
export interface EffectiveRule {
  area: string;
  event: string;
  category: string;
  severity: NotificationSeverity;
  recipients: readonly RecipientSpec[];
  requires_ack: boolean;
  tell_actor: boolean;
  enabled: boolean;
  overridden: boolean;
}

/** Every shipped rule by id, with the organisation's overrides applied. */
export const effectiveRules = (
  catalogue: readonly CataloguedRule[],
  overrides: Readonly<Record<string, RuleOverride>>,
): Record<string, EffectiveRule> =>
  Object.fromEntries(
    catalogue.map((rule) => {
      const override = overrides[rule.id];
      return [
        rule.id,
        {
          area: rule.area,
          event: rule.event,
          category: rule.category,
          severity: override?.severity ?? rule.severity,
          recipients: override?.recipients ?? rule.recipients,
          requires_ack: override?.requires_ack ?? rule.requires_ack ?? false,
          tell_actor: rule.tell_actor ?? false,
          enabled: override?.enabled ?? true,
          overridden: override !== undefined,
        },
      ];
    }),
  );

/** An override refused, with where in the request it is (below the attributes). */
export interface OverrideRefusal {
  path: readonly (string | number)[];
  reason: string;
}

/** Why the overrides may not be made: an unknown rule, relationship or permission, each with its path. */
export const overrideRefusals = (
  catalogue: readonly CataloguedRule[],
  overrides: Readonly<Record<string, RuleOverride | null>>,
  isPermission: (name: string) => boolean,
): OverrideRefusal[] => {
  const rules = new Map(catalogue.map((rule) => [rule.id, rule]));
  return Object.entries(overrides).flatMap(([id, override]): OverrideRefusal[] => {
    const rule = rules.get(id);
    if (!rule) return [{ path: ['overrides', id], reason: `${id} is no notification rule.` }];
    return (override?.recipients ?? []).flatMap((spec, i): OverrideRefusal[] => {
      const path = ['overrides', id, 'recipients', i];
      if ('permission' in spec)
        return isPermission(spec.permission)
          ? []
          : [{ path: [...path, 'permission'], reason: `${spec.permission} is no permission.` }];
      const relationship = 'relationship' in spec ? spec.relationship : spec.named;
      return rule.user_relationships.includes(relationship)
        ? []
        : [
            {
              path: [...path, 'relationship' in spec ? 'relationship' : 'named'],
              reason: `The subject of ${rule.event} has no relationship ${relationship} naming users (it has: ${rule.user_relationships.join(', ') || 'none'}).`,
            },
          ];
    });
  });
};
