import { recordsByOrg } from '../../data/principals';
import { readPartition } from '../../data/repository';
import type { Scope } from '../../data/scope';
import type { StoredResource } from '../../data/stored-resource';
import { builtInRoles } from '../../domain/iam/effective-permissions';
import { defineResource } from '../resource-definition';

/**
 * Each user's `meta.grants`: the names of the roles and role groups they hold in their organisation,
 * directly or through teams. One Query of each organisation's grants and one BatchGetItem of the custom
 * role and group names, however many users are answered.
 */
const withGrants = async (scope: Scope, items: StoredResource[]): Promise<StoredResource[]> => {
  const orgIds = [...new Set(items.map((u) => u.org_id))];
  const grants = (await Promise.all(orgIds.map((org) => readPartition(scope, org, 'grants')))).flat();
  const custom = (name: string) =>
    grants.flatMap((g) => {
      const id = g.rels[name];
      return typeof id === 'string' && !builtInRoles.has(id) ? [{ org_id: g.org_id, id }] : [];
    });
  const [roles, groups] = await Promise.all([
    recordsByOrg('roles', custom('role')),
    recordsByOrg('role-groups', custom('role_group')),
  ]);
  const names = new Map([...roles, ...groups].map((r) => [r.id, String(r.attributes.name)]));
  return items.map((user) => {
    const teams = Array.isArray(user.rels.teams) ? user.rels.teams : [];
    const held = grants
      .filter(
        (g) => g.org_id === user.org_id && (g.rels.user === user.id || teams.includes(String(g.rels.team))),
      )
      .flatMap((g) => [g.rels.role, g.rels.role_group].filter((id): id is string => typeof id === 'string'))
      .map((id) => names.get(id) ?? id);
    return { ...user, meta: { ...user.meta, grants: [...new Set(held)].sort() } };
  });
};

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
