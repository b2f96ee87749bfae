/**
 * Changing a team's members, in one transaction: the team (its members and lead), each user's `teams`
 * link and the names of the team's grants on their record (`meta.grants`), their principal's team list
 * (CDM duty held through a team reads it), and what they hold of each grant the team holds (the items
 * their permissions are one Query of). A member added can at once do what the team's grants allow; a
 * member removed, at once no longer.
 *
 * Nobody gives permissions they do not hold, through any path: adding members gives them every grant the
 * team holds, so the caller must hold all of it (403 naming the rest, as an invitation to the team would
 * be); the grants and the roles and groups behind them are checked at the version read as it commits.
 */
import * as z from 'zod';
import { heldOf } from '#functions/iam/grant-writes';
import type { Principal } from '#shared/auth/principal';
import {
  getPrincipal,
  heldGrantItem,
  heldGrantKey,
  heldGrantsOf,
  principalKey,
  principalTeamLeave,
} from '#shared/data/principals';
import { batchGetInScope } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { defineWrite, type WriteRequest } from '#shared/engine/define-write';
import { changedRecord } from '#shared/engine/record-writes';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { invitationGives, teamGrantsOf, versionChecks } from './invitation-authority';
import { heldOnRecord, ids } from './joining';
import { beyondInviter } from './rules/invitation';
import { type MembershipChange, membershipAfter } from './rules/team-membership';
import { teams } from './teams';
import { heldNameAttribute, users } from './users';

/** Identifiers one request names: the whole set for a PATCH; its changes must also fit one transaction. */
export const TEAM_MEMBERS_PER_REQUEST = 100;

const memberIdentifier = z.strictObject({
  type: z.literal('users'),
  id: z.uuid(),
  meta: z.strictObject({ lead: z.boolean().optional() }).optional(),
});

/** `{data: [{type: 'users', id, meta?: {lead}}]}`: JSON:API's to-many relationship document. */
export const teamMembersDocument = z.lazy(() =>
  z.strictObject({ data: z.array(memberIdentifier).max(TEAM_MEMBERS_PER_REQUEST) }),
);

export type TeamMembersRequest = WriteRequest & {
  principal: Principal;
  team: StoredResource;
  change: MembershipChange;
};

/** The team's members and lead as stored. */
export const membershipOf = (team: StoredResource) => ({
  members: ids(team.rels.members),
  lead: typeof team.rels.lead === 'string' ? team.rels.lead : null,
});

const noSuchUser = (at: number) =>
  new ValidationError({ detail: 'No such user in this organisation.', source: { pointer: `/data/${at}` } });

/**
 * What the change reads: the users it adds and removes (a user not of the organisation is 400 at its
 * identifier), the removed users' principals, what each removed user holds through the team (read
 * strongly consistent from their own partition, so no grant the team held when read is left behind),
 * and for users added the team's grants, what they give and the names members show for them.
 */
const facts = async (
  { scope, orgId, team, change }: TeamMembersRequest,
  { data }: z.infer<typeof teamMembersDocument>,
) => {
  const decision = membershipAfter(change, membershipOf(team), data);
  if ('refused' in decision)
    throw new ValidationError({
      detail: decision.refused.detail,
      source: { pointer: decision.refused.pointer },
    });
  const { added, removed } = decision;
  const [found, teamGrants, leaving] = await Promise.all([
    batchGetInScope(
      scope,
      [...added, ...removed].map((id) => users.keyOf(orgId, id)),
    ),
    added.length > 0 ? teamGrantsOf(orgId, [team.id]) : [],
    Promise.all(
      removed.map(async (id) => {
        const [principal, held] = await Promise.all([getPrincipal(id), heldGrantsOf(id, true)]);
        return { id, principal, held: held.filter((g) => g.org_id === orgId && g.team === team.id) };
      }),
    ),
  ]);
  for (const id of added)
    if (!found.some((u) => u.id === id)) throw noSuchUser(data.findIndex((m) => m.id === id));
  const { names, read } = await heldOnRecord(scope, added[0] ?? '', teamGrants);
  const given =
    added.length > 0 ? await invitationGives(orgId, { roles: [], role_groups: [] }, teamGrants, read) : null;
  return { decision, found, teamGrants, names, given, leaving };
};

type Facts = Awaited<ReturnType<typeof facts>>;

/** The refusal naming what adding members would give beyond what the caller holds. */
const beyondCaller = (beyond: readonly string[]) =>
  new ForbiddenError(
    `You can give only permissions you hold; adding members to this team would also give ${beyond.join(', ')} (the grants the team holds).`,
  );

export const changeTeamMembers = defineWrite({
  document: teamMembersDocument,
  facts,
  decide: ({ orgId, principal, team, now }: TeamMembersRequest, _document, f: Facts) => {
    const { decision } = f;
    if (f.given) {
      const beyond = beyondInviter(f.given.permissions, principal.permissions.get(orgId) ?? new Set());
      if (beyond.length > 0) throw beyondCaller(beyond);
    }
    const next =
      decision.event === null
        ? team
        : changedRecord(
            teams,
            team,
            { rels: { members: [...decision.next.members], lead: decision.next.lead } },
            now,
          );
    return { ...f, next };
  },
  ops: ({ orgId, team }: TeamMembersRequest, d) => {
    const { decision, next, teamGrants, names, found, given } = d;
    if (decision.event === null) return { ops: [] };
    const identifiers = (list: readonly string[]) => list.map((id) => ({ type: users.type, id }));
    const joining = decision.added.flatMap((id): WriteOp[] => [
      { link: { key: users.keyOf(orgId, id), relationship: 'teams', id: team.id, set: names } },
      { append: { key: principalKey(id), map: 'teams', name: orgId, id: team.id } },
      ...teamGrants.map((g): WriteOp => ({ put: heldGrantItem(id, heldOf(g)) })),
    ]);
    const leaving = d.leaving.flatMap(({ id, principal, held }): WriteOp[] => {
      const user = found.find((u) => u.id === id);
      const at = principal?.teams[orgId]?.indexOf(team.id) ?? -1;
      return [
        ...(user
          ? [
              {
                unlink: {
                  record: user,
                  relationship: 'teams',
                  id: team.id,
                  unset: held.map((g) => heldNameAttribute(g.grant_id)),
                },
              },
            ]
          : []),
        ...(at >= 0 ? [{ item: principalTeamLeave(id, orgId, team.id, at) }] : []),
        ...held.map((g): WriteOp => ({ remove: heldGrantKey(id, g.grant_id) })),
      ];
    });
    const ops: WriteOp[] = [
      {
        replace: next,
        was: team,
        ...(decision.event !== 'updated' && { as: decision.event }),
        note: { members_added: identifiers(decision.added), members_removed: identifiers(decision.removed) },
      },
      ...joining,
      ...leaving,
      // What adding gives rests on the team's grants and the roles and groups behind them, as read.
      ...(given ? versionChecks(given.restsOn) : []),
    ];
    return {
      ops,
      refused: (error) => {
        // Too large for one transaction stays itself (413): nothing was written.
        if (error.code === 'too-large') throw error;
        throw new ConflictError(
          'The team, one of its members, or a grant it holds changed while this request was applied; read it again and retry.',
        );
      },
    };
  },
  answer: ({ next }) => next,
});
