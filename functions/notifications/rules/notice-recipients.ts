/**
 * Whom a notice reaches (pure): the users it names, the members of the teams it names, and, with
 * `everyone`, every user of the organisation, each counted once and only while active (a suspended or
 * deactivated user reads nothing). The reads are `notice-recipients.ts`; the count is taken at send.
 */
import type { Problem } from './notice';

/** What a notice names as its recipients (the request's `recipients`, kept as sent). */
export interface RecipientsSpec {
  users: readonly string[];
  teams: readonly string[];
  everyone: boolean;
}

/** At most this many users and teams by name: the spec travels in the notice's event (bounded). */
export const NAMED_USERS_MAX = 500;
export const NAMED_TEAMS_MAX = 50;

const RECIPIENTS = '/data/attributes/recipients';

/**
 * What the organisation holds of the names (`users`: its users found, `teams`: its teams found): a
 * notice names someone (a user, a team or everyone), and each user and team it names is the
 * organisation's (a service account, another organisation's user or an unknown id is not).
 */
export const recipientProblems = (
  spec: RecipientsSpec,
  found: { users: ReadonlySet<string>; teams: ReadonlySet<string> },
): Problem[] => {
  if (!spec.everyone && spec.users.length === 0 && spec.teams.length === 0)
    return [
      {
        pointer: RECIPIENTS,
        detail: 'A notice names its recipients: users, teams or everyone.',
      },
    ];
  return [
    ...spec.users.flatMap((id, i) =>
      found.users.has(id)
        ? []
        : [{ pointer: `${RECIPIENTS}/users/${i}`, detail: 'No such user in this organisation.' }],
    ),
    ...spec.teams.flatMap((id, i) =>
      found.teams.has(id)
        ? []
        : [{ pointer: `${RECIPIENTS}/teams/${i}`, detail: 'No such team in this organisation.' }],
    ),
  ];
};

/** The users a spec names, directly or through its teams' members, each once (not with `everyone`). */
export const namedUserIds = (
  spec: RecipientsSpec,
  membersOf: ReadonlyMap<string, readonly string[]>,
): string[] => [...new Set([...spec.users, ...spec.teams.flatMap((team) => membersOf.get(team) ?? [])])];

/**
 * How many distinct users the notice reaches now: with `everyone`, the organisation's active users
 * (each named one among them); else the named ones (through teams too) who are active.
 */
export const recipientCount = (
  spec: RecipientsSpec,
  facts: {
    activeUsers: number;
    membersOf: ReadonlyMap<string, readonly string[]>;
    isActive: (id: string) => boolean;
  },
): number =>
  spec.everyone ? facts.activeUsers : namedUserIds(spec, facts.membersOf).filter(facts.isActive).length;
