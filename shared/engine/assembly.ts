/**
 * What the composition root (`shared/routes.ts`) checks as it assembles the areas' manifests into the
 * lists the layers read: one owner per permission, and no route requiring a permission no area declares.
 */

import type { CataloguedRule, NotificationRule } from '../domain/notification-rules';
import type { PermissionDeclarations } from '../domain/permissions';
import { type DeclaredFacts, ruleProblems, userRelationships } from './notification-rule-checks';

/** Every area's permissions, in area order (each area's in its manifest's); a permission declared twice throws. */
export const assemblePermissions = (
  areas: readonly { name: string; permissions: PermissionDeclarations }[],
): Map<string, string> => {
  const catalogue = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const area of areas) {
    for (const [permission, allows] of Object.entries(area.permissions)) {
      const owner = owners.get(permission);
      if (owner) throw new Error(`${permission} is declared by both ${owner} and ${area.name}`);
      owners.set(permission, area.name);
      catalogue.set(permission, allows);
    }
  }
  return catalogue;
};

/** Each route's permission (or `self`, or `party`) that no area declares, as `<route id>: <permission>`. */
export const undeclaredPermissions = (
  routes: readonly { id: string; permission: string | null; self?: string; party?: string }[],
  catalogue: ReadonlyMap<string, string>,
): string[] =>
  routes.flatMap((route) =>
    [route.permission, route.self, route.party]
      .filter((p): p is string => typeof p === 'string' && p !== 'authenticated' && !catalogue.has(p))
      .map((p) => `${route.id}: ${p}`),
  );

/**
 * Every area's notification rules, in area order, each with the relationships of its subject naming
 * users; a rule naming an undeclared event, a relationship its subject lacks (or one not naming users),
 * a permission no area declares, or an id another rule has, stops the service loading, every problem said.
 */
export const assembleNotificationRules = (
  areas: readonly { name: string; notificationRules: readonly NotificationRule[] }[],
  facts: DeclaredFacts,
): CataloguedRule[] => {
  const rules = areas.flatMap((area) => area.notificationRules.map((rule) => ({ ...rule, area: area.name })));
  const problems = ruleProblems(rules, facts);
  if (problems.length > 0) throw new Error(`notification rules refused: ${problems.join('; ')}`);
  return rules.map((rule) => ({ ...rule, user_relationships: userRelationships(rule.event, facts) }));
};
