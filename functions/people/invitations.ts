import type { StoredResource } from '#shared/data/stored-resource';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { expiry, INVITATION_DAYS_DEFAULT, INVITATION_STATUSES, invitationStatus } from './rules/invitation';

/**
 * The moves' work and writes (the token, its e-mail, the address claim) load when a move runs: every
 * function reads this declaration, few resend or revoke an invitation.
 */
const moves = () => import('./invitation-moves');

/** A resent invitation's new lifetime, from now. */
const renewed = (invitation: StoredResource, { now }: { now: Date }) => ({
  attributes: {
    expires_at: expiry(now, Number(invitation.attributes.lifetime_days ?? INVITATION_DAYS_DEFAULT)),
  },
  meta: { sent_at: now.toISOString() },
});

const statusAt = (invitation: StoredResource, now: Date) =>
  invitationStatus(invitation.attributes as { status: string; expires_at: string }, now);

/** Each invitation's status as of now: a pending one past its expiry shows `expired`. */
const withStatus = async (_scope: unknown, items: StoredResource[]): Promise<StoredResource[]> => {
  const now = new Date();
  return items.map((invitation) => ({
    ...invitation,
    attributes: {
      ...invitation.attributes,
      status: statusAt(invitation, now),
    },
  }));
};

/**
 * Invitations to join an organisation: the e-mail invited; the roles, role groups and teams, job role and
 * SSO provider acceptance will give; who invited; and, once accepted, the user. Writes and the token:
 * `invitation-writes.ts`; states: `domain/people/invitation.ts`. The token is never an attribute.
 */
export const invitations = defineResource({
  type: 'invitations',
  tag: 'Invitations',
  names: { one: 'Invitation', many: 'Invitations' },
  collectionPath: '/v3/orgs/{org_id}/people/invitations',
  itemPath: '/v3/invitations/{invitation_id}',
  permission: 'invitations',
  endpoints: {
    list: true,
    get: true,
    create: {
      handler: 'functions/people/create-invitation.ts',
      permission: 'invitations:manage',
      access: { table: 'write', email: true },
    },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      email: z.string().describe('Lower-cased.'),
      status: z.enum(INVITATION_STATUSES).describe('`expired`: pending past `expires_at`.'),
      lifetime_days: z.number().int(),
      expires_at: instant(),
    };
  },
  relationships: {
    organisation: false,
    roles: { type: 'roles', many: true },
    role_groups: { type: 'role-groups', many: true },
    teams: { type: 'teams', many: true },
    job_role: { type: 'job-roles' },
    sso_provider: { type: 'sso-providers' },
    invited_by: { type: 'users' },
    invited_by_service_account: { type: 'service-accounts' },
    user: { type: 'users' },
  },
  collection: {
    // Every filter indexed (issue 42): an e-mail where it sorts, a creation window on the UUIDv7 ids.
    filters: {
      email: { kind: 'eq', path: 'attributes.email', index: 'sort-email' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { email: { path: 'attributes.email', index: 'lsi1' } },
    defaultSort: 'created_at',
    // Built-in roles are not stored records (iam/virtual-records.ts): `roles` names them, not includes them.
    includes: ['role_groups', 'teams', 'job_role', 'invited_by', 'user'],
  },
  derive: withStatus,
  // Acceptance is by token alone, on its own route (`accept-invitation.ts`): not a move of the record's.
  events: ['accepted'],
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: INVITATION_STATUSES,
    // Expiry is time's, not a write: a pending invitation past `expires_at` is expired to every move.
    state: statusAt,
    noun: 'invitation',
    transitions: {
      resend: {
        from: ['pending', 'expired'],
        to: 'pending',
        event: 'resent',
        access: { table: 'write', email: true },
        changes: renewed,
        work: async (scope, invitation) => (await moves()).newTokenWork(scope, invitation),
        writes: async (moved) => (await moves()).claimRenewed(moved),
      },
      revoke: {
        from: ['pending', 'expired'],
        to: 'revoked',
        event: 'revoked',
        changes: (_invitation, { now }) => ({ meta: { revoked_at: now.toISOString() } }),
        work: async () => (await moves()).voidToken(),
        writes: async (moved, before, context) => (await moves()).releasedClaim(moved, before, context),
      },
    },
  }),
});
