/**
 * A team's members as JSON:API's to-many relationship updates change them, and its lead. Pure.
 *
 * POST adds the users named (those already members stay once), DELETE removes them (naming one who is not
 * a member changes nothing), PATCH makes the set exactly those named. A team has at most one lead, a
 * member: `meta: {lead: true}` on an identifier makes that user the lead (a POST or PATCH); a POST naming
 * none keeps the lead, a PATCH naming none leaves the team without one, and the lead removed leaves none.
 */

export type MembershipChange = 'add' | 'remove' | 'replace';

export interface Membership {
  members: readonly string[];
  lead: string | null;
}

export interface NamedMember {
  id: string;
  meta?: { lead?: boolean } | undefined;
}

/** The event a change commits, named by what it did; null when it changed nothing. */
export type MembershipEvent = 'member-added' | 'member-removed' | 'members-replaced' | 'updated';

export type MembershipDecision =
  | { next: Membership; added: string[]; removed: string[]; event: MembershipEvent | null }
  | { refused: { detail: string; pointer: string } };

const refused = (detail: string, pointer: string): MembershipDecision => ({ refused: { detail, pointer } });

export const membershipAfter = (
  change: MembershipChange,
  now: Membership,
  named: readonly NamedMember[],
): MembershipDecision => {
  const ids = named.map((m) => m.id);
  const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (twice >= 0) return refused('This lists a user more than once.', `/data/${twice}`);
  const leads = named.flatMap((m, i) => (m.meta?.lead === true ? [i] : []));
  if (change === 'remove' && leads.length > 0)
    return refused('A member being removed cannot be made the lead.', `/data/${leads[0]}/meta/lead`);
  if (leads.length > 1) return refused('A team has at most one lead.', `/data/${leads[1]}/meta/lead`);
  const flagged = leads[0] === undefined ? null : (ids[leads[0]] ?? null);
  const members =
    change === 'add'
      ? [...now.members, ...ids.filter((id) => !now.members.includes(id))]
      : change === 'remove'
        ? now.members.filter((id) => !ids.includes(id))
        : ids;
  const lead =
    change === 'replace' ? flagged : (flagged ?? (now.lead && members.includes(now.lead) ? now.lead : null));
  const added = members.filter((id) => !now.members.includes(id));
  const removed = now.members.filter((id) => !members.includes(id));
  const event: MembershipEvent | null =
    added.length > 0 && removed.length > 0
      ? 'members-replaced'
      : added.length > 0
        ? 'member-added'
        : removed.length > 0
          ? 'member-removed'
          : lead !== now.lead
            ? 'updated'
            : null;
  return { next: { members, lead }, added, removed, event };
};

/** Why a team may not be deleted yet: its members and the grants it holds go first (409 with this). */
export const teamDeleteRefusal = (members: number, grants: number): string | undefined => {
  const reasons = [
    ...(members > 0
      ? [
          `it has ${members} ${members === 1 ? 'member' : 'members'} (remove them: DELETE …/relationships/members)`,
        ]
      : []),
    ...(grants > 0
      ? [
          `it holds ${grants} ${grants === 1 ? 'grant' : 'grants'} (revoke them: DELETE /v3/orgs/{org_id}/iam/grants/{grant_id})`,
        ]
      : []),
  ];
  return reasons.length > 0 ? `This team cannot be deleted while ${reasons.join(' and ')}.` : undefined;
};
