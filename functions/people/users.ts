import type { StoredResource } from '#shared/data/stored-resource';
import { defineLifecycle, type PartyRule } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { ownStatusRefusal, USER_STATUSES } from './rules/user-status';

/**
 * The attribute of a user record naming what one grant gives them in its organisation (directly or
 * through a team): written in the grant's own transaction (`holdingOps` in iam/grant-writes.ts) and
 * renamed with its role or group (iam/grant-names.ts), never served.
 */
export const heldNameAttribute = (grantId: string) => `held#${grantId}`;

/**
 * Each user's `meta.grants`: the names of the roles and role groups they hold in their organisation,
 * from their own record, so answering users reads nothing more.
 */
const withGrants = async (_scope: unknown, items: StoredResource[]): Promise<StoredResource[]> =>
  items.map((user) => {
    const held = Object.entries(user).flatMap(([name, value]) =>
      name.startsWith(heldNameAttribute('')) ? [String(value)] : [],
    );
    return { ...user, meta: { ...user.meta, grants: [...new Set(held)].sort() } };
  });

/** Nobody changes their own status (`rules/user-status.ts`): no administrator locks themself out. */
const notYourself: PartyRule = (user, principal) =>
  ownStatusRefusal(user.id, principal.kind === 'user' ? principal.id : null);

/** A change of status moves the user's principal too (`user-moves.ts`, loaded when a move is made). */
const principalFollows = async (moved: StoredResource, _before: StoredResource, context: { now: Date }) =>
  (await import('./user-moves')).principalFollows(moved, context);

/**
 * A user as an organisation sees them (the spec's User table): `email`, `identities`, `status` and the
 * grouped `profile` (work, personal, contact, address, settings); `meta.grants` lists their role names
 * there; a user holds at most one job role. Administrators (`users:manage`) change status and job role;
 * a user may change their own profile (`users:self`). Writes: `user-writes.ts`. Status moves by the
 * declared machine (`POST /v3/users/{user_id}/suspend|deactivate|reactivate`); a PATCH of `status` is
 * its documented alias.
 */
export const users = defineResource({
  type: 'users',
  tag: 'Users',
  names: { one: 'User', many: 'Users' },
  collectionPath: '/v3/orgs/{org_id}/people/users',
  itemPath: '/v3/users/{user_id}',
  permission: 'users',
  endpoints: {
    list: 'functions/people/list-users.ts',
    get: true,
    update: { handler: 'functions/people/update-user.ts', self: 'users:self' },
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    // Every group and member is present: a new user's profile holds their name and nulls (joining.ts).
    const text = () => z.string().nullable();
    const date = () => z.iso.date().nullable();
    return {
      email: z.string(),
      status: z.enum(USER_STATUSES),
      identities: z.array(
        z.strictObject({
          id: z.string(),
          platform: z.literal('oidc'),
          meta: z.strictObject({ sso_provider: z.string(), sub: z.string() }),
        }),
      ),
      profile: z.strictObject({
        work: z.strictObject({ occupation: text(), cscs: text(), eusr: text(), start_date: date() }),
        personal: z.strictObject({
          first_name: z.string(),
          last_name: z.string(),
          username: text(),
          dob: date(),
        }),
        contact: z.strictObject({ mobile: text(), landline: text() }),
        address: z.strictObject(
          Object.fromEntries(
            [
              'number',
              'street',
              'area',
              'town',
              'county',
              'postcode',
              'country_code',
              'three_word_address',
            ].map((name) => [name, text()]),
          ),
        ),
        settings: z.strictObject({ preferred_language: z.string(), timezone: z.string() }),
      }),
    };
  },
  relationships: {
    organisation: false,
    organisations: { type: 'organisations', many: true },
    teams: { type: 'teams', many: true },
    job_role: { type: 'job-roles' },
  },
  keys: {
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#users',
      sk: 'status#{attributes.status}#{id}',
      about:
        'a user under their status, in creation order: `filter[status]`; users written before issue 42 lack it until migrated',
    },
    'filter-job-role': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#users',
      sk: 'job_role#{rels.job_role}#{id}',
      about: 'a user under their job role, in creation order (none without one): `filter[job_role]`',
    },
  },
  collection: {
    // Every filter is indexed (an organisation may hold 50,000 workers): none reads the whole partition.
    filters: {
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      email: { kind: 'eq', path: 'attributes.email', index: 'sort-email' },
      job_role: { kind: 'eq', path: 'rels.job_role', index: 'filter-job-role' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: {
      last_name: { path: 'attributes.profile.personal.last_name', index: 'lsi1' },
      email: { path: 'attributes.email', index: 'lsi2' },
    },
    defaultSort: 'last_name',
    includes: ['teams', 'job_role'],
  },
  derive: withGrants,
  // active → suspended → active, and either → deactivated, final but for reactivation (→ active); nobody
  // changes their own status (no locking oneself out). A PATCH of `status` is an alias of these moves.
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: USER_STATUSES,
    noun: 'user',
    article: 'A',
    patchAlias: true,
    transitions: {
      suspend: {
        from: ['active'],
        to: 'suspended',
        event: 'suspended',
        parties: [notYourself],
        writes: principalFollows,
      },
      deactivate: {
        from: ['active', 'suspended'],
        to: 'deactivated',
        event: 'deactivated',
        parties: [notYourself],
        writes: principalFollows,
      },
      reactivate: {
        from: ['suspended', 'deactivated'],
        to: 'active',
        event: 'reactivated',
        parties: [notYourself],
        writes: principalFollows,
      },
    },
  }),
});
