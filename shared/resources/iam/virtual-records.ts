/** Records that are defined in code, not stored: the permission catalogue and the built-in roles. */
import type { StoredResource } from '../../data/stored-resource';
import { builtInRoles } from '../../domain/iam/effective-permissions';
import { permissionCatalogue } from '../../domain/iam/permissions';

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
  Object.entries(permissionCatalogue).map(([name, description]) =>
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
