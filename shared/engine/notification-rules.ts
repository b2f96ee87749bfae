/**
 * Notification rules as areas ship them (`defineArea`'s `notificationRules`): which event notifies whom,
 * in which category, how severely, with which words. Data only: the composition root checks every rule
 * against what the declarations declare as it loads (`ruleProblems`: a bad rule stops the service loading),
 * and registers them with what each rule's subject offers (`registerNotificationRules`); the notifications
 * function's entry carries the same catalogue as build-time data (`infra/area-bundle.ts`), so it reads
 * every area's rules without loading every declaration.
 */
import type { CataloguedRule, NotificationRule, RecipientSpec } from '../domain/notification-rules';

export type { CataloguedRule, NotificationRule, RecipientSpec };

/** What the rules are checked against: the declarations, as the composition root has them. */
export interface DeclaredFacts {
  eventNames: ReadonlySet<string>;
  /** The record types whose events are named `<name>.…`. */
  typesNamed: (name: string) => readonly string[];
  /** A type's relationships and the types each points at. */
  relationshipsOf: (type: string) => ReadonlyMap<string, readonly string[]>;
  isPermission: (name: string) => boolean;
}

const eventName = (event: string) => event.slice(0, event.lastIndexOf('.'));

/** The relationships naming users on every type an event may be about. */
export const userRelationships = (event: string, facts: DeclaredFacts): string[] => {
  const types = facts.typesNamed(eventName(event));
  const named = types.map(
    (type) =>
      new Set(
        [...facts.relationshipsOf(type)].flatMap(([name, targets]) =>
          targets.includes('users') ? [name] : [],
        ),
      ),
  );
  // Those every type offers: a rule's relationship must hold whichever type the event is about.
  return [...(named[0] ?? [])].filter((name) => named.every((set) => set.has(name)));
};

/** Why a recipient spec cannot name anyone for this event, or null. */
export const recipientProblem = (event: string, spec: RecipientSpec, facts: DeclaredFacts): string | null => {
  if ('relationship' in spec)
    return userRelationships(event, facts).includes(spec.relationship)
      ? null
      : `${spec.relationship} is no relationship naming users of ${event}'s subject`;
  if ('permission' in spec)
    return facts.isPermission(spec.permission) ? null : `${spec.permission} is no declared permission`;
  return facts.typesNamed(eventName(event)).every((type) => facts.relationshipsOf(type).has(spec.named))
    ? null
    : `${event}'s subject names no ${spec.named}`;
};

/** Every problem of the rules, as `<rule id>: <problem>`; none for rules the service may load. */
export const ruleProblems = (rules: readonly NotificationRule[], facts: DeclaredFacts): string[] => {
  const seen = new Set<string>();
  return rules.flatMap((rule) => {
    const problems: string[] = [];
    if (seen.has(rule.id)) problems.push('declared twice');
    seen.add(rule.id);
    if (!facts.eventNames.has(rule.event)) problems.push(`${rule.event} is no declared event`);
    else
      for (const spec of rule.recipients) {
        const problem = recipientProblem(rule.event, spec, facts);
        if (problem) problems.push(problem);
      }
    if (rule.recipients.length === 0) problems.push('notifies nobody');
    return problems.map((problem) => `${rule.id}: ${problem}`);
  });
};

let registered: readonly CataloguedRule[] | undefined;

export const registerNotificationRules = (rules: readonly CataloguedRule[]): void => {
  registered = rules;
};

/** Every area's rules, in area order. Asked for where nobody registered them, it refuses, never lists fewer. */
export const notificationRules = (): readonly CataloguedRule[] => {
  if (!registered)
    throw new Error(
      'the notification rules are asked for where they were not registered: load shared/routes.ts',
    );
  return registered;
};
