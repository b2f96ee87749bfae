/**
 * Inviting people by e-mail, resending, revoking and accepting.
 *
 * - An invitation names what accepting it gives (roles, role groups, teams, a job role) and the SSO
 *   provider that must be used, if any. The inviter may give only permissions it holds in the
 *   organisation itself, those of the grants its teams hold included (403 naming the rest), and must
 *   still hold them when it is accepted (`invitation-authority.ts`).
 * - One pending invitation per e-mail address in an organisation: a claim on the address, expiring with
 *   the invitation (an expired one is no obstacle) and released when it is accepted or revoked.
 * - The token goes out once, in the e-mail; only its SHA-256 is stored. Resending issues a new one (the
 *   old stops working) and a new lifetime.
 * - Accepting creates the user (or links the organisation's user with that address), gives the grants,
 *   teams and job role, and closes the invitation, in one transaction; then a session starts.
 */
import { timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { type SignedIn, signIn } from '#functions/auth/signed-in';
import { roleGroups, roles, ssoProviders } from '#functions/iam/definitions';
import { settingsOf } from '#functions/organisations/settings';
import type { Principal } from '#shared/auth/principal';
import { uuidv7 } from '#shared/data/ids';
import { settingsKey } from '#shared/data/organisation-settings';
import { batchGetInScope, getConsistent, readPartition } from '#shared/data/repository';
import { type Scope, scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { byPrincipal, newRecord } from '#shared/engine/record-writes';
import { email, integer, requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError, UnauthorisedError, ValidationError } from '#shared/jsonapi/errors';
import { identifier, toMany } from '#shared/jsonapi/request-document';
import { beyondInviterError, invitationGives, teamGrantsOf, versionChecks } from './invitation-authority';
import { hashInvitationToken, newToken, send } from './invitation-moves';
import { invitations } from './invitations';
import { jobRoles } from './job-roles';
import { addressClaim, ids, joinFromInvitation } from './joining';
import {
  beyondInviter,
  expiry,
  INVITATION_DAYS_DEFAULT,
  INVITATION_DAYS_MAX,
  invitationStatus,
  parseInvitationToken,
} from './rules/invitation';
import { teams } from './teams';

/** What one invitation may give: enough for any real onboarding, few enough for one transaction. */
const GIVES_MAX = 10;

const roleIdentifier = z.strictObject({ type: z.literal('roles'), id: z.string().min(1).max(64) });

export const createInvitationDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('invitations'),
      attributes: z.strictObject({
        email: email(),
        lifetime_days: integer(1, INVITATION_DAYS_MAX).default(INVITATION_DAYS_DEFAULT),
      }),
      relationships: z
        .strictObject({
          roles: z.strictObject({ data: z.array(roleIdentifier).max(GIVES_MAX) }).optional(),
          role_groups: toMany('role-groups', GIVES_MAX).optional(),
          teams: toMany('teams', GIVES_MAX).optional(),
          job_role: z.strictObject({ data: identifier('job-roles').nullable() }).optional(),
          sso_provider: z.strictObject({ data: identifier('sso-providers').nullable() }).optional(),
        })
        .refine((r) => (r.roles?.data.length ?? 0) + (r.role_groups?.data.length ?? 0) > 0, {
          error: 'An invitation gives at least one role or role group.',
        }),
    }),
  }),
);

export const acceptInvitationDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('invitation-acceptances'),
      attributes: z.strictObject({
        token: z.string().max(200),
        // A new user's name, when the organisation has no user with the invited address yet.
        first_name: requiredLine(100).optional(),
        last_name: requiredLine(100).optional(),
      }),
    }),
  }),
);

/**
 * The records an invitation names, read together: 400 at the first that is not the organisation's. The
 * permissions they give, its teams' grants included, and every record that answer rests on.
 */
const readGiven = async (scope: Scope, orgId: string, rels: Record<string, unknown>) => {
  const named = [
    { name: 'roles', definition: roles, ids: ids(rels.roles).filter((id) => !builtInRoles.has(id)) },
    { name: 'role_groups', definition: roleGroups, ids: ids(rels.role_groups) },
    { name: 'teams', definition: teams, ids: ids(rels.teams) },
    { name: 'job_role', definition: jobRoles, ids: rels.job_role ? [String(rels.job_role)] : [] },
    {
      name: 'sso_provider',
      definition: ssoProviders,
      ids: rels.sso_provider ? [String(rels.sso_provider)] : [],
    },
  ];
  const [read, teamGrants] = await Promise.all([
    batchGetInScope(
      scope,
      named.flatMap((n) => n.ids.map((id) => n.definition.keyOf(orgId, id))),
    ),
    teamGrantsOf(orgId, ids(rels.teams)),
  ]);
  for (const { name, definition, ids: wanted } of named) {
    const missing = wanted.findIndex((id) => !read.some((r) => r.type === definition.type && r.id === id));
    if (missing >= 0)
      throw new ValidationError({
        detail: 'No such record in this organisation.',
        source: { pointer: `/data/relationships/${name}/data${name.endsWith('s') ? `/${missing}` : ''}` },
      });
  }
  const { permissions: given, restsOn } = await invitationGives(
    orgId,
    { roles: ids(rels.roles), role_groups: ids(rels.role_groups) },
    teamGrants,
    read,
  );
  return { given, restsOn: [...read, ...restsOn] };
};

export const createInvitation = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createInvitationDocument>,
  principal: Principal,
  organisationName: string,
  now = new Date(),
): Promise<StoredResource> => {
  const r = data.relationships;
  const rels = {
    roles: r.roles?.data.map((d) => d.id) ?? [],
    role_groups: r.role_groups?.data.map((d) => d.id) ?? [],
    teams: r.teams?.data.map((d) => d.id) ?? [],
    job_role: r.job_role?.data?.id ?? null,
    sso_provider: r.sso_provider?.data?.id ?? null,
  };
  for (const [name, list] of Object.entries({
    roles: rels.roles,
    role_groups: rels.role_groups,
    teams: rels.teams,
  }))
    if (new Set(list).size !== list.length)
      throw new ValidationError({
        detail: `${name} names a record more than once.`,
        source: { pointer: `/data/relationships/${name}/data` },
      });
  for (const [i, role] of rels.roles.entries())
    if (!builtInRoles.has(role) && !z.uuid().safeParse(role).success)
      throw new ValidationError({
        detail: 'No such role.',
        source: { pointer: `/data/relationships/roles/data/${i}` },
      });
  const { given, restsOn } = await readGiven(scope, orgId, rels);
  const beyond = beyondInviter(given, principal.permissions.get(orgId) ?? new Set());
  if (beyond.length > 0) throw beyondInviterError(beyond, 'holds');
  const id = uuidv7(now.getTime());
  const token = newToken(orgId, id);
  const invitation = {
    ...newRecord(
      invitations,
      orgId,
      {
        attributes: {
          email: data.attributes.email.toLowerCase(),
          status: 'pending',
          lifetime_days: data.attributes.lifetime_days,
          expires_at: expiry(now, data.attributes.lifetime_days),
        },
        rels: { ...rels, ...byPrincipal('invited_by', principal, 'invited_by'), user: null },
        meta: { sent_at: now.toISOString() },
      },
      now,
      id,
    ),
    token_hash: hashInvitationToken(token),
  };
  // What it names, and what its teams hold, must still be as read when it commits.
  const checks = versionChecks(restsOn);
  await commit(scope, [{ create: invitation }, { claim: addressClaim(invitation) }, ...checks]).catch(
    (error: unknown) => {
      if (error instanceof WriteRefused && error.op === 1)
        throw new ConflictError('This address already has a pending invitation to this organisation.', {
          pointer: '/data/attributes/email',
        });
      // Too large for one transaction stays itself (413): nothing changed meanwhile.
      if (error instanceof WriteRefused && error.code !== 'too-large')
        throw new ConflictError('A record this invitation names changed meanwhile; try again.');
      throw error;
    },
  );
  await send(invitation, token, organisationName);
  return invitation;
};

// Where the token is checked: sign-in through an SSO provider names the invitation by it too.
export { hashInvitationToken };

const invalidToken = () => new UnauthorisedError('The invitation token is invalid, or has been replaced.');

/**
 * The invitation a token names, if the token is its current one (compared in constant time), read with
 * a strongly consistent read so a resend just made is seen.
 */
export const invitationOfToken = async (token: string) => {
  const named = parseInvitationToken(token);
  if (!named) throw invalidToken();
  const scope = scopeOf([named.orgId]);
  const invitation = await getConsistent(scope, {
    ...invitations.keyOf(named.orgId, named.invitationId),
    orgId: named.orgId,
  });
  const stored = Buffer.from(String((invitation as { token_hash?: string } | null)?.token_hash ?? ''));
  const presented = Buffer.from(hashInvitationToken(token));
  if (!invitation || stored.length !== presented.length || !timingSafeEqual(stored, presented))
    throw invalidToken();
  return invitation;
};

/**
 * Accepts an invitation by its token alone (POST /v3/invitations/accept): one transaction makes (or
 * links) the user and gives what the invitation names; then a session starts, for the organisation's
 * session lifetime. An invitation naming an SSO provider is accepted by signing in through it.
 */
export const acceptInvitation = async (
  { data }: z.infer<typeof acceptInvitationDocument>,
  now = new Date(),
): Promise<SignedIn> => {
  const invitation = await invitationOfToken(data.attributes.token);
  const status = invitationStatus(invitation.attributes as { status: string; expires_at: string }, now);
  if (status !== 'pending') throw new ConflictError(`This invitation is ${status}.`);
  if (invitation.rels.sso_provider)
    throw new ConflictError(
      'This invitation is accepted by signing in through the organisation’s SSO provider it names.',
    );
  // Where SSO is enforced (by the settings, or by any of its providers), sign-in is the only way in.
  const orgScope = scopeOf([invitation.org_id]);
  const [[stored], providers] = await Promise.all([
    batchGetInScope(orgScope, [settingsKey(invitation.org_id)]),
    readPartition(orgScope, invitation.org_id, ssoProviders.type),
  ]);
  const orgSettings = settingsOf(stored ?? null);
  if (orgSettings.sso_enforced || providers.some((p) => p.attributes.enforce === true))
    throw new ConflictError(
      'This organisation requires signing in through its SSO provider: accept the invitation there (GET /v3/sso/{oidc_identifier}/authorize?invitation=…).',
    );
  return signIn(await joinFromInvitation(invitation, data.attributes, now), orgSettings, now);
};
