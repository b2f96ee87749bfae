/**
 * What the composition root checks of every notification rule as it loads (`assembly.ts`): its event is a
 * declared event, each relationship it names is one of the subject's naming users, each permission is in
 * the catalogue, and its id is its own. Apart from the rules' registry, so a function reading the rules
 * carries none of what they are checked against.
 */
import type { NotificationRule, RecipientSpec } from '../domain/notification-rules';

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
    if (rule.recipients.length === 0 && !rule.addressed) problems.push('notifies nobody');
    return problems.map((problem) => `${rule.id}: ${problem}`);
  });
};
