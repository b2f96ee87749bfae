import type { StoredResource } from '../../data/stored-resource';
import { defineResource } from '../resource-definition';

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

/**
 * A user as an organisation sees them (the spec's User table): `email`, `identities` and the grouped
 * `profile` (work, personal, contact, address, settings); `meta.grants` lists their role names there.
 */
export const users = defineResource({
  type: 'users',
  tag: 'Users',
  names: { one: 'User', many: 'Users' },
  itemPath: '/v3/users/{user_id}',
  permission: 'users',
  endpoints: { get: true },
  relationships: {
    organisations: { type: 'organisations', many: true },
    teams: { type: 'teams', many: true },
  },
  derive: withGrants,
});
