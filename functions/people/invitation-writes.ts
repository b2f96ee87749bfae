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
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { type SignedIn, signIn } from '#functions/auth/signed-in';
import { roleGroups, roles, ssoProviders } from '#functions/iam/definitions';
import { settingsOf } from '#functions/organisations/settings';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { sendEmail } from '#shared/data/email';
import { uuidv7 } from '#shared/data/ids';
import { settingsKey } from '#shared/data/organisation-settings';
import { batchGetInScope, getConsistent, readPartition } from '#shared/data/repository';
import { type Scope, scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { byPrincipal, newRecord } from '#shared/engine/record-writes';
import { indexed } from '#shared/engine/stored';
import { email, integer, requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError, UnauthorisedError, ValidationError } from '#shared/jsonapi/errors';
import { identifier, toMany } from '#shared/jsonapi/request-document';
import { beyondInviterError, invitationGives, teamGrantsOf, versionChecks } from './invitation-authority';
import { invitations } from './invitations';
import { jobRoles } from './job-roles';
import { addressClaim, ids, joinFromInvitation, releaseClaim } from './joining';
import {
  beyondInviter,
  INVITATION_DAYS_DEFAULT,
  INVITATION_DAYS_MAX,
  invitationStatus,
  invitationToken,
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

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('base64url');

const newToken = (orgId: string, invitationId: string) =>
  invitationToken(orgId, invitationId, randomBytes(32).toString('base64url'));

const expiry = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

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

/** The e-mail that carries the token: where to accept, by when, and what the invitation is for. */
const invitationEmail = (invitation: StoredResource, token: string, organisation: string) => {
  const link = `${config.APP_URL}/accept-invitation?token=${encodeURIComponent(token)}`;
  const expires = String(invitation.attributes.expires_at).slice(0, 16).replace('T', ' ');
  return {
    to: String(invitation.attributes.email),
    subject: `You are invited to join ${organisation}`,
    text: [
      `You have been invited to join ${organisation}.`,
      '',
      `Accept the invitation here (the link works once, until ${expires} UTC):`,
      link,
      '',
      `Or send this token to POST /v3/invitations/accept: ${token}`,
      '',
      'If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
  };
};

const send = async (invitation: StoredResource, token: string, organisation: string) => {
  await sendEmail(invitationEmail(invitation, token, organisation)).catch((error: unknown) => {
    throw new ConflictError(
      `The invitation is saved, but its e-mail could not be sent (${error instanceof Error ? error.name : 'error'}): resend it.`,
    );
  });
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

/** A pending (or expired) invitation sent again: a new token, the old one void, a new lifetime. */
export const resendInvitation = async (
  scope: Scope,
  invitation: StoredResource,
  organisationName: string,
  now = new Date(),
): Promise<StoredResource> => {
  const status = invitationStatus(invitation.attributes as { status: string; expires_at: string }, now);
  if (status !== 'pending' && status !== 'expired')
    throw new ConflictError(`This invitation is ${status}; invite the person again instead.`);
  const token = newToken(invitation.org_id, invitation.id);
  const next = {
    ...indexed(invitations, {
      ...invitation,
      attributes: {
        ...invitation.attributes,
        expires_at: expiry(now, Number(invitation.attributes.lifetime_days ?? INVITATION_DAYS_DEFAULT)),
      },
      meta: { ...invitation.meta, sent_at: now.toISOString(), updated_at: now.toISOString() },
      version: invitation.version + 1,
    }),
    token_hash: hashInvitationToken(token),
  };
  // An expired invitation's claim may meanwhile be another invitation's: then this one cannot be renewed.
  await commit(scope, [{ replace: next, as: 'resent' }, { claim: addressClaim(next) }]).catch(
    (error: unknown) => {
      if (error instanceof WriteRefused && error.op === 1)
        throw new ConflictError('A newer invitation to this address is pending; resend that one.');
      if (error instanceof WriteRefused)
        throw new ConflictError('The invitation changed meanwhile; read it again and retry.');
      throw error;
    },
  );
  await send(next, token, organisationName);
  return next;
};

export const revokeInvitation = async (
  scope: Scope,
  invitation: StoredResource,
  now = new Date(),
): Promise<StoredResource> => {
  const status = invitationStatus(invitation.attributes as { status: string; expires_at: string }, now);
  if (status === 'accepted' || status === 'revoked')
    throw new ConflictError(`This invitation is already ${status}.`);
  const next = {
    ...invitation,
    attributes: { ...invitation.attributes, status: 'revoked' },
    meta: { ...invitation.meta, revoked_at: now.toISOString(), updated_at: now.toISOString() },
    version: invitation.version + 1,
    token_hash: null,
  };
  await commit(scope, [{ replace: next, as: 'revoked' }, ...releaseClaim(invitation, now)]).catch(
    (error: unknown) => {
      throw error instanceof WriteRefused
        ? new ConflictError('The invitation changed meanwhile; read it again and retry.')
        : error;
    },
  );
  return next;
};

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
