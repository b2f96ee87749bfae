/**
 * Nobody gives permissions they do not hold, through any path. What an invitation gives is its roles,
 * its role groups and every grant each of its teams holds (role groups and custom roles resolved); its
 * inviter must hold all of it when inviting, and again when the invitation is accepted: in the up to 30
 * days between, a team may have gained grants, or the inviter lost them (or been suspended). Each
 * decision names the records it rests on as version checks for its commit, so a change between the read
 * and the commit refuses the write rather than slipping through.
 */
import { permissionsOfGrants } from '#shared/auth/grant-permissions';
import {
  getPrincipal,
  grantsOf,
  type HeldGrant,
  heldGrantCheck,
  heldGrantsOf,
  principalEnabledCheck,
} from '#shared/data/principals';
import { keyId, type StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { builtInRoles, type GrantFacts } from '#shared/domain/effective-permissions';
import type { Permission } from '#shared/domain/permissions';
import { ForbiddenError } from '#shared/jsonapi/errors';
import { beyondInviter } from './rules/invitation';

const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** The grant records the teams hold in the organisation: joining a team gives each of them. */
export const teamGrantsOf = async (orgId: string, teamIds: readonly string[]): Promise<StoredResource[]> =>
  (await Promise.all(teamIds.map((team) => grantsOf(team)))).flat().filter((g) => g.org_id === orgId);

const factsOf = (orgId: string, rels: { role?: unknown; role_group?: unknown }): GrantFacts => ({
  org_id: orgId,
  ...(typeof rels.role === 'string' && { role: rels.role }),
  ...(typeof rels.role_group === 'string' && { role_group: rels.role_group }),
});

/** A commit's checks that these records are still as read, one per record. */
export const versionChecks = (records: readonly StoredResource[]): WriteOp[] =>
  [...new Map(records.map((r) => [keyId(r), r])).values()].map(
    (r): WriteOp => ({ check: { pk: r.pk, sk: r.sk, version: r.version } }),
  );

/**
 * The permissions an invitation gives in its organisation, and the records they rest on: the teams'
 * grants and the role groups and custom roles read. `known`: role groups and custom roles already read.
 */
export const invitationGives = async (
  orgId: string,
  named: { roles: readonly string[]; role_groups: readonly string[] },
  teamGrants: readonly StoredResource[],
  known: readonly StoredResource[] = [],
) => {
  const { permissions, read } = await permissionsOfGrants(
    [
      ...named.roles.map((role) => factsOf(orgId, { role })),
      ...named.role_groups.map((role_group) => factsOf(orgId, { role_group })),
      ...teamGrants.map((grant) => factsOf(orgId, grant.rels)),
    ],
    known,
  );
  return { permissions: permissions.get(orgId) ?? new Set<Permission>(), restsOn: [...teamGrants, ...read] };
};

/** The role group and custom roles a grant's permissions come from, among those read. */
const recordsBehind = (grant: GrantFacts, read: readonly StoredResource[]) => {
  const group = grant.role_group
    ? read.find((r) => r.type === 'role-groups' && r.id === grant.role_group)
    : undefined;
  const roleIds = grant.role ? [grant.role] : idsIn(group?.rels.roles);
  return [
    ...(group ? [group] : []),
    ...read.filter((r) => r.type === 'roles' && roleIds.includes(r.id) && !builtInRoles.has(r.id)),
  ];
};

/**
 * What the inviter holds in the organisation now, read afresh (never a cached evaluation): nothing once
 * its principal is disabled (a suspended or deactivated user, a disabled service account) or gone. The
 * checks pin what `given` rests on: each grant that gives any of it still held as read, and the role
 * groups and custom roles behind those grants at the version read; `enabled`, the principal still enabled.
 */
const inviterHolds = async (
  orgId: string,
  inviterId: string | undefined,
  given: ReadonlySet<Permission>,
  known: readonly StoredResource[],
): Promise<{ permissions: ReadonlySet<Permission>; checks: WriteOp[]; enabled: WriteOp[] }> => {
  const nothing = { permissions: new Set<Permission>(), checks: [], enabled: [] };
  if (!inviterId) return nothing;
  const [principal, held] = await Promise.all([getPrincipal(inviterId), heldGrantsOf(inviterId)]);
  if (!principal?.enabled) return nothing;
  const here = held.filter((g) => g.org_id === orgId);
  const { permissions, read, of } = await permissionsOfGrants(here, known);
  const needed = here.filter((g) => [...(of([g]).get(orgId) ?? [])].some((p) => given.has(p)));
  return {
    permissions: permissions.get(orgId) ?? new Set(),
    enabled: [{ item: principalEnabledCheck(inviterId) }],
    checks: [
      ...needed.map((g: HeldGrant): WriteOp => ({ item: heldGrantCheck(inviterId, g) })),
      ...versionChecks(needed.flatMap((g) => recordsBehind(g, read))),
    ],
  };
};

/** The refusal naming what an inviter cannot give. */
export const beyondInviterError = (beyond: readonly string[], now: 'holds' | 'no longer holds') =>
  new ForbiddenError(
    now === 'holds'
      ? `You can give only permissions you hold; this invitation would also give ${beyond.join(', ')}.`
      : `This invitation would give permissions its inviter no longer holds (${beyond.join(', ')}): ask them, or another administrator, for a new invitation.`,
  );

/** Who made an invitation: a user, or a service account. */
const inviterOf = (invitation: StoredResource) => {
  const { invited_by, invited_by_user, invited_by_service_account } = invitation.rels;
  // `invited_by_user`: where invitations made before the relationship took its declared name keep it.
  const id = invited_by ?? invited_by_user ?? invited_by_service_account;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The acceptance's decision: what joining gives now (`teamGrants`: those of the teams the user joins)
 * against what the inviter holds now; 403 naming the rest, else the checks its commit carries. A user
 * accepting their own invitation is pinned by their own record's version instead of their principal's
 * (the transaction writes that principal, and may touch an item once).
 */
export const acceptanceAuthority = async (
  invitation: StoredResource,
  teamGrants: readonly StoredResource[],
  joiningUserId: string,
): Promise<WriteOp[]> => {
  const orgId = invitation.org_id;
  const given = await invitationGives(
    orgId,
    { roles: idsIn(invitation.rels.roles), role_groups: idsIn(invitation.rels.role_groups) },
    teamGrants,
  );
  const inviterId = inviterOf(invitation);
  const held = await inviterHolds(orgId, inviterId, given.permissions, given.restsOn);
  const beyond = beyondInviter(given.permissions, held.permissions);
  if (beyond.length > 0) throw beyondInviterError(beyond, 'no longer holds');
  return [
    ...versionChecks(given.restsOn),
    ...held.checks,
    ...(inviterId === joiningUserId ? [] : held.enabled),
  ];
};
