import { grantsOf, recordsByOrg } from '../data/principals';
import type { StoredResource } from '../data/stored-resource';
import { builtInRoles } from '../domain/iam/effective-permissions';
import { defineResource } from './resource-definition';

/** The names of the roles and role groups a user holds in their organisation, directly or through teams. */
const withGrants = async (user: StoredResource): Promise<StoredResource> => {
  const teams = Array.isArray(user.rels.teams) ? user.rels.teams : [];
  const grants = (await grantsOf([user.id, ...teams])).filter((g) => g.org_id === user.org_id);
  const ids = (name: string) => [
    ...new Set(grants.map((g) => g.rels[name]).filter((id): id is string => typeof id === 'string')),
  ];
  const refs = (list: string[]) =>
    list.filter((id) => !builtInRoles.has(id)).map((id) => ({ org_id: user.org_id, id }));
  const [roles, groups] = await Promise.all([
    recordsByOrg('roles', refs(ids('role'))),
    recordsByOrg('role-groups', refs(ids('role_group'))),
  ]);
  const names = new Map([...roles, ...groups].map((r) => [r.id, String(r.attributes.name)]));
  const held = [...ids('role'), ...ids('role_group')].map((id) => names.get(id) ?? id);
  return { ...user, meta: { ...user.meta, grants: [...new Set(held)].sort() } };
};

/**
 * A user as an organisation sees them (the spec's User table): `email`, `identities` and the grouped
 * `profile` (work, personal, contact, address, settings); `meta.grants` lists their role names there.
 */
export const users = defineResource({
  type: 'users',
  relationships: {
    organisations: { type: 'organisations', many: true },
    teams: { type: 'teams', many: true },
  },
  selfPath: (r) => `/v3/orgs/${r.org_id}/people/users/${r.id}`,
  derive: (_scope, items) => Promise.all(items.map(withGrants)),
});
