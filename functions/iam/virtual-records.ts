/** Records that are defined in code, not stored: the permission catalogue and the built-in roles. */
import { readPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { permissionCatalogue } from '#shared/domain/permissions';
import { readInScope } from '#shared/engine/single';
import { ConflictError } from '#shared/jsonapi/errors';
import { roles } from './definitions';

const virtual = (
  type: string,
  orgId: string,
  id: string,
  attributes: Record<string, unknown>,
  meta = {},
): StoredResource => ({
  pk: '',
  sk: id,
  type,
  id,
  org_id: orgId,
  attributes,
  meta,
  rels: {},
  version: 0,
});

export const permissionRecords = (): StoredResource[] =>
  [...permissionCatalogue()].map(([name, description]) =>
    virtual('iam-permissions', '', name, { name, description }),
  );

/** The built-in roles as every organisation sees them. */
export const builtInRoleRecords = (orgId: string): StoredResource[] =>
  [...builtInRoles].map(([id, role]) =>
    virtual(
      'roles',
      orgId,
      id,
      { name: role.name, description: role.description, permissions: [...role.permissions] },
      {
        built_in: true,
      },
    ),
  );

/** The organisation's roles: the built-in ones (fixed string ids) and its custom roles. */
export const rolesOf = async (scope: Scope, orgId: string): Promise<StoredResource[]> => [
  ...builtInRoleRecords(orgId),
  ...(await readPartition(scope, orgId, roles.type)),
];

/** A role by id: a built-in role as the organisation sees it, or a custom role in the scope (404 otherwise). */
export const readRole = async (scope: Scope, orgId: string, id: string): Promise<StoredResource> =>
  builtInRoles.has(id)
    ? (builtInRoleRecords(orgId).find((r) => r.id === id) as StoredResource)
    : readInScope(scope, roles, id);

/** Built-in roles are defined in code: changing or deleting one is a conflict with its nature. */
export const refuseBuiltIn = (role: StoredResource) => {
  if (role.meta.built_in === true) throw new ConflictError('Built-in roles cannot be changed or deleted.');
  return role;
};
