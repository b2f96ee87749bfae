/**
 * Joining an organisation from an invitation, in one transaction: the user made (or the organisation's
 * user with the invited address changed), a grant per role and role group with what the user keeps of
 * each, the user's teams (and the grants those teams hold), the job role's count of holders, the
 * invitation accepted and its address's claim released; only if what that gives, as it stands now, is
 * within what the inviter holds now (`invitation-authority.ts`). Accepting by token
 * (`invitation-writes.ts`) and signing in with an invitation (`auth/sso-login.ts`) both end here.
 */

import { roleGroups, roles } from '#functions/iam/definitions';
import { grantRecord, heldOf } from '#functions/iam/grant-writes';
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import { heldGrantItem, principalTeamsWrite, userPrincipal } from '#shared/data/principals';
import { batchGetInScope, queryIndexPrefix } from '#shared/data/repository';
import { type Scope, scopeOf } from '#shared/data/scope';
import type { ItemKey, StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { indexed, toStoredResource } from '#shared/engine/stored';
import { ConflictError } from '#shared/jsonapi/errors';
import { acceptanceAuthority, teamGrantsOf } from './invitation-authority';
import { holdersMove } from './job-roles';
import { invitationStatus } from './rules/invitation';
import { teams } from './teams';
import { heldNameAttribute, users } from './users';

export const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

const keys = /* @__PURE__ */ declareAccessPatterns('people/joining', {
  'address-claim': {
    ...tenantPattern('invitation-emails', '{email}'),
    about: "`holder_id`, `expires_at` (the invitation's)",
  },
});

/** The claim on an address: one pending invitation per address in an organisation. */
export const addressClaim = (
  invitation: StoredResource,
): ItemKey & { holder_id: string; expires_at: number } => ({
  ...keyFrom(keys['address-claim'], {
    org_id: invitation.org_id,
    email: String(invitation.attributes.email),
  }),
  holder_id: invitation.id,
  expires_at: Math.floor(Date.parse(String(invitation.attributes.expires_at)) / 1000),
});

/**
 * The address claim goes with a pending invitation, whose claim it still is (no other invitation can
 * take it before this one expires); an expired invitation's claim is left to whoever holds it now.
 */
export const releaseClaim = (invitation: StoredResource, now: Date): WriteOp[] => {
  const status = invitationStatus(invitation.attributes as { status: string; expires_at: string }, now);
  const { pk, sk } = addressClaim(invitation);
  return status === 'pending' ? [{ remove: { pk, sk } }] : [];
};

/**
 * The transaction that turns an invitation into membership: the user made (or the organisation's user
 * with that address changed), a grant per role and role group with what the user keeps of each, the
 * user's teams (and the grants those teams hold), the job role's count, the invitation accepted and its
 * address released. The inviter's authority is decided again first, and what that decision read is
 * checked as the transaction commits: the user is given exactly the grants it counted. `names` name a
 * new user (else the address's local part does).
 */
export const joinFromInvitation = async (
  invitation: StoredResource,
  names: { first_name?: string; last_name?: string },
  now: Date,
): Promise<StoredResource> => {
  const orgId = invitation.org_id;
  const address = String(invitation.attributes.email);
  const existing = (await queryIndexPrefix(scopeOf([orgId]), orgId, users.type, 'lsi2', address)).find(
    (u) => String(u.attributes.email).toLowerCase() === address,
  );
  if (existing && existing.attributes.status !== undefined && existing.attributes.status !== 'active')
    throw new ConflictError(
      `This address belongs to a ${existing.attributes.status} user: an administrator reactivates them first.`,
    );
  const userId = existing?.id ?? uuidv7(now.getTime());
  const scope = scopeOf([orgId], undefined, { kind: 'user', id: userId });
  const teamIds = ids(invitation.rels.teams).filter((t) => !ids(existing?.rels.teams).includes(t));
  const teamGrants = await teamGrantsOf(orgId, teamIds);
  // What joining gives, as it stands now, within what the inviter holds now (403 otherwise).
  const authority = await acceptanceAuthority(invitation, teamGrants, userId);
  const given = [
    ...ids(invitation.rels.roles).map((role) => grantRecord(orgId, { role, user: userId }, now)),
    ...ids(invitation.rels.role_groups).map((role_group) =>
      grantRecord(orgId, { role_group, user: userId }, now),
    ),
  ];
  const holds = [...given, ...teamGrants];
  const { names: held, ops: holding } = await heldOnRecord(scope, userId, holds);
  const jobRole = invitation.rels.job_role ? String(invitation.rels.job_role) : undefined;
  const local = address.split('@')[0] ?? address;
  const user: StoredResource = existing
    ? {
        ...indexed(users, {
          ...existing,
          rels: {
            ...existing.rels,
            teams: [...ids(existing.rels.teams), ...teamIds],
            ...(jobRole && { job_role: jobRole }),
          },
          meta: { ...existing.meta, updated_at: now.toISOString() },
          version: existing.version + 1,
        }),
        ...held,
      }
    : {
        ...newUserRecord(orgId, userId, now, {
          email: address,
          first: names.first_name ?? local,
          last: names.last_name ?? '',
          teams: teamIds,
          jobRole: jobRole ?? null,
        }),
        ...held,
      };
  const previousRole = existing?.rels.job_role;
  const accepted = {
    ...invitation,
    attributes: { ...invitation.attributes, status: 'accepted' },
    rels: { ...invitation.rels, user: userId },
    meta: { ...invitation.meta, accepted_at: now.toISOString(), updated_at: now.toISOString() },
    version: invitation.version + 1,
    token_hash: null,
  };
  const ops: WriteOp[] = [
    { replace: accepted, was: invitation, as: 'accepted' },
    existing ? { replace: user, was: existing } : { create: user },
    ...releaseClaim(invitation, now),
    ...(existing
      ? teamIds.length > 0
        ? [{ item: principalTeamsWrite(userId, orgId, teamIds) }]
        : []
      : [
          {
            put: userPrincipal(userId, `${names.first_name ?? local} ${names.last_name ?? ''}`.trim(), {
              [orgId]: teamIds,
            }),
          },
        ]),
    ...given.map((grant): WriteOp => ({ create: grant })),
    ...holding,
    ...teamIds.map(
      (team): WriteOp => ({ link: { key: teams.keyOf(orgId, team), relationship: 'members', id: userId } }),
    ),
    ...(jobRole ? holdersMove(orgId, previousRole, jobRole) : []),
    ...authority,
  ];
  await commit(scope, ops).catch((error: unknown) => {
    // Too large for one transaction stays itself (413): nothing changed meanwhile.
    throw error instanceof WriteRefused && error.code !== 'too-large'
      ? new ConflictError(
          'The invitation, a team, role or job role it names, or what its inviter holds changed meanwhile (or is gone); try again, or ask for a new invitation.',
        )
      : error;
  });
  return user;
};

/** A new user of the organisation: active, named, and the rest of their profile empty until they fill it in. */
export const newUserRecord = (
  orgId: string,
  id: string,
  now: Date,
  user: {
    email: string;
    first: string;
    last: string;
    identities?: unknown[];
    teams?: string[];
    jobRole?: string | null;
  },
): StoredResource =>
  toStoredResource(users, {
    orgId,
    id,
    attributes: {
      email: user.email,
      status: 'active',
      identities: user.identities ?? [],
      profile: newProfile(user.first, user.last),
    },
    meta: { created_at: now.toISOString(), updated_at: now.toISOString() },
    rels: { organisations: [orgId], teams: user.teams ?? [], job_role: user.jobRole ?? null },
  });

/**
 * What a user keeps of the grants they hold, for the transaction that writes their record: the names
 * `meta.grants` shows, to set on the record itself (`holdingOps` keeps them on a record that already
 * exists; one transaction cannot write an item twice), and an item per grant in their principal's
 * partition. `read`: the custom roles and role groups read for their names.
 */
export const heldOnRecord = async (scope: Scope, userId: string, grants: readonly StoredResource[]) => {
  const given = (grant: StoredResource) => String(grant.rels.role_group ?? grant.rels.role);
  const read = await batchGetInScope(
    scope,
    grants.flatMap((g) =>
      g.rels.role_group
        ? [roleGroups.keyOf(g.org_id, given(g))]
        : builtInRoles.has(given(g))
          ? []
          : [roles.keyOf(g.org_id, given(g))],
    ),
  );
  const names = new Map(read.map((r) => [r.id, String(r.attributes.name)]));
  return {
    names: Object.fromEntries(grants.map((g) => [heldNameAttribute(g.id), names.get(given(g)) ?? given(g)])),
    ops: grants.map((g): WriteOp => ({ put: heldGrantItem(userId, heldOf(g)) })),
    read,
  };
};

/** A new user's profile: their name, the rest empty until they fill it in. */
const newProfile = (first: string, last: string) => ({
  work: { occupation: null, cscs: null, eusr: null, start_date: null },
  personal: { first_name: first, last_name: last, username: null, dob: null },
  contact: { mobile: null, landline: null },
  address: {
    number: null,
    street: null,
    area: null,
    town: null,
    county: null,
    postcode: null,
    country_code: null,
    three_word_address: null,
  },
  settings: { preferred_language: 'en-GB', timezone: 'Europe/London' },
});
