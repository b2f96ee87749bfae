/**
 * Custom roles (bundles of catalogue permissions) and role groups (bundles of roles). Built-in roles are
 * defined in code and cannot be changed. A role or group still named by a grant or group cannot be
 * deleted (409), so no grant silently stops meaning anything.
 */
import * as z from 'zod';
import { readPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { isPermission } from '#shared/domain/permissions';
import { changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import { freeText, line, requiredLine } from '#shared/jsonapi/attribute-types';
import { ConflictError } from '#shared/jsonapi/errors';
import { assertSameId, createDocument } from '#shared/jsonapi/request-document';
import { grants, roleGroups, roles } from './definitions';

const name = z.lazy(() => requiredLine(200));
const description = z.lazy(() => freeText(2000));
const permissionList = z.lazy(() =>
  z
    .array(z.string().refine(isPermission, 'Not a permission in the catalogue (GET /v3/iam/permissions).'))
    .max(100)
    .refine((list) => new Set(list).size === list.length, 'Permissions are listed more than once.'),
);
const roleIds = z.lazy(() =>
  z.strictObject({
    data: z.array(z.strictObject({ type: z.literal('roles'), id: z.string().min(1).max(64) })).max(50),
  }),
);

export const createRoleDocument = z.lazy(() =>
  createDocument('roles', { name, description: description.default(''), permissions: permissionList }, {}),
);
export const updateRoleDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('roles'),
      id: line(64),
      attributes: z.strictObject({
        name: name.optional(),
        description: description.optional(),
        permissions: permissionList.optional(),
      }),
    }),
  }),
);
export const createRoleGroupDocument = z.lazy(() =>
  createDocument(
    'role-groups',
    { name, description: description.default('') },
    { roles: roleIds.optional() },
  ),
);
export const updateRoleGroupDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('role-groups'),
      id: z.uuid(),
      attributes: z.strictObject({ name: name.optional(), description: description.optional() }).optional(),
      relationships: z.strictObject({ roles: roleIds.optional() }).optional(),
    }),
  }),
);

/** Every named custom role must exist in the organisation: checked inside the write's transaction. */
const roleChecks = (orgId: string, ids: readonly string[], pointer: (i: number) => string) =>
  ids.flatMap((id, i) =>
    builtInRoles.has(id) ? [] : [{ op: { check: roles.keyOf(orgId, id) } as WriteOp, pointer: pointer(i) }],
  );

export const createRole = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createRoleDocument>,
) => {
  const role = newRecord(roles, orgId, { attributes: data.attributes, meta: { built_in: false } });
  await commit(scope, [{ create: role }]);
  return role;
};

export const updateRole = async (
  scope: Scope,
  role: StoredResource,
  { data }: z.infer<typeof updateRoleDocument>,
) => {
  assertSameId(data.id, role.id);
  const next = changedRecord(roles, role, { attributes: data.attributes });
  await commitChecked(scope, [{ replace: next, was: role }], []);
  return next;
};

export const createRoleGroup = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createRoleGroupDocument>,
) => {
  const ids = data.relationships?.roles?.data.map((r) => r.id) ?? [];
  const group = newRecord(roleGroups, orgId, { attributes: data.attributes, rels: { roles: ids } });
  await commitChecked(
    scope,
    [{ create: group }],
    roleChecks(orgId, ids, (i) => `/data/relationships/roles/data/${i}`),
  );
  return group;
};

export const updateRoleGroup = async (
  scope: Scope,
  group: StoredResource,
  { data }: z.infer<typeof updateRoleGroupDocument>,
) => {
  assertSameId(data.id, group.id);
  const ids = data.relationships?.roles?.data.map((r) => r.id);
  const next = changedRecord(roleGroups, group, {
    attributes: data.attributes ?? {},
    rels: ids ? { roles: ids } : {},
  });
  await commitChecked(
    scope,
    [{ replace: next, was: group }],
    roleChecks(group.org_id, ids ?? [], (i) => `/data/relationships/roles/data/${i}`),
  );
  return next;
};

/** Deletes a custom role or role group that no grant (and, for a role, no group) still names. */
export const deleteRoleOrGroup = async (scope: Scope, record: StoredResource) => {
  const relationship = record.type === 'roles' ? 'role' : 'role_group';
  const [heldBy, groups] = await Promise.all([
    readPartition(scope, record.org_id, grants.type),
    record.type === 'roles' ? readPartition(scope, record.org_id, roleGroups.type) : Promise.resolve([]),
  ]);
  const grantsNaming = heldBy.filter((g) => g.rels[relationship] === record.id).length;
  const groupsNaming = groups.filter(
    (g) => Array.isArray(g.rels.roles) && g.rels.roles.includes(record.id),
  ).length;
  if (grantsNaming + groupsNaming > 0) {
    throw new ConflictError(
      `Still named by ${grantsNaming} grant(s) and ${groupsNaming} role group(s): revoke or change them first.`,
    );
  }
  await commitChecked(scope, [{ delete: record }], []);
};
