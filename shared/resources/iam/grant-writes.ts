/**
 * Grants give a role or a role group to a user, a team or a service account within one organisation.
 * The grant commits only if the grantee, the custom role or the role group is a record of that
 * organisation: a principal of another organisation is refused exactly as an id that exists nowhere
 * (same check, same error), so a grant can neither reach across organisations nor tell which ids exist.
 * Access across organisations will come through bridges both sides accept, not through grants.
 */
import * as z from 'zod';
import { uuidv7 } from '../../data/ids';
import { granteeIndexKey } from '../../data/principals';
import type { Scope } from '../../data/scope';
import type { StoredResource } from '../../data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '../../data/transaction';
import { builtInRoles } from '../../domain/iam/effective-permissions';
import { ConflictError, ValidationError } from '../../jsonapi/errors';
import { assertSameId } from '../../jsonapi/request-document';
import { teams } from '../people/teams';
import { users } from '../people/users';
import { toStoredResource } from '../stored';
import { grants, roleGroups, roles, serviceAccounts } from './definitions';

const toOne = <T extends string>(type: T, id: z.ZodType<string> = z.uuid()) =>
  z.strictObject({ data: z.strictObject({ type: z.literal(type), id }) });

export const createGrantDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('grants'),
      attributes: z.strictObject({}).optional(),
      relationships: z
        .strictObject({
          role: toOne('roles', z.string().min(1).max(64)).optional(),
          role_group: toOne('role-groups').optional(),
          user: toOne('users').optional(),
          team: toOne('teams').optional(),
          service_account: toOne('service-accounts').optional(),
        })
        .refine((r) => [r.role, r.role_group].filter(Boolean).length === 1, {
          message: 'Name exactly one of role and role_group.',
        })
        .refine((r) => [r.user, r.team, r.service_account].filter(Boolean).length === 1, {
          message: 'Name exactly one grantee: user, team or service_account.',
        }),
    }),
  }),
);

export type GrantDocument = z.infer<typeof createGrantDocument>;

/**
 * Where each kind of grantee must exist: among the granting organisation's own records of its type. Never
 * the principal record (`PRINCIPAL#<id>`), which exists whatever organisation the principal belongs to.
 */
const granteeTypes = { user: users, team: teams, service_account: serviceAccounts } as const;

/** The grant record as stored, indexed by grantee; committing it is `createGrant`'s business. */
export const grantRecord = (
  orgId: string,
  rels: { role?: string; role_group?: string } & Partial<Record<keyof typeof granteeTypes, string>>,
  now = new Date(),
): StoredResource => {
  const id = uuidv7(now.getTime());
  const granteeId = rels.user ?? rels.team ?? rels.service_account ?? '';
  return {
    ...toStoredResource(grants, {
      orgId,
      id,
      attributes: {},
      meta: { created_at: now.toISOString(), updated_at: now.toISOString() },
      rels,
    }),
    gsi1pk: granteeIndexKey(granteeId),
    gsi1sk: `${orgId}#${id}`,
  };
};

export const createGrant = async (
  scope: Scope,
  orgId: string,
  { data }: GrantDocument,
  now = new Date(),
): Promise<StoredResource> => {
  const r = data.relationships;
  const [granteeName, grantee] =
    (Object.entries(granteeTypes).find(([name]) => r[name as keyof typeof granteeTypes]) as
      | [keyof typeof granteeTypes, (typeof granteeTypes)[keyof typeof granteeTypes]]
      | undefined) ?? [];
  const granteeId = granteeName ? r[granteeName]?.data.id : undefined;
  if (!granteeName || !grantee || !granteeId) throw new ValidationError({ detail: 'A grantee is required.' });
  const role = r.role?.data.id;
  const roleGroup = r.role_group?.data.id;
  if (role && !builtInRoles.has(role) && !z.uuid().safeParse(role).success) {
    throw new ValidationError({
      detail: 'No such role.',
      source: { pointer: '/data/relationships/role/data/id' },
    });
  }
  const grant = grantRecord(
    orgId,
    { ...(role && { role }), ...(roleGroup && { role_group: roleGroup }), [granteeName]: granteeId },
    now,
  );
  const checks: { op: WriteOp; pointer: string }[] = [
    { op: { check: grantee.keyOf(orgId, granteeId) }, pointer: `/data/relationships/${granteeName}/data/id` },
    ...(role && !builtInRoles.has(role)
      ? [{ op: { check: roles.keyOf(orgId, role) }, pointer: '/data/relationships/role/data/id' }]
      : []),
    ...(roleGroup
      ? [
          {
            op: { check: roleGroups.keyOf(orgId, roleGroup) },
            pointer: '/data/relationships/role_group/data/id',
          },
        ]
      : []),
  ];
  await commit(scope, [{ create: grant }, ...checks.map((c) => c.op)]).catch((error: unknown) => {
    const failed = error instanceof WriteRefused && error.op !== undefined ? checks[error.op - 1] : undefined;
    if (failed)
      throw new ValidationError({
        detail: 'No such record in this organisation.',
        source: { pointer: failed.pointer },
      });
    throw error;
  });
  return grant;
};

export const deleteGrant = (scope: Scope, grant: StoredResource) => commit(scope, [{ delete: grant }]);

export const updateGrantDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('grants'),
      id: z.uuid(),
      relationships: z
        .strictObject({
          role: toOne('roles', z.string().min(1).max(64)).optional(),
          role_group: toOne('role-groups').optional(),
        })
        .refine((r) => [r.role, r.role_group].filter(Boolean).length === 1, {
          message: 'Name exactly one of role and role_group.',
        }),
    }),
  }),
);

/** Changes what a grant gives (its role or role group); the grantee is fixed: grant someone else anew. */
export const updateGrant = async (
  scope: Scope,
  grant: StoredResource,
  { data }: z.infer<typeof updateGrantDocument>,
) => {
  assertSameId(data.id, grant.id);
  const { role: _role, role_group: _group, ...grantee } = grant.rels;
  const role = data.relationships.role?.data.id;
  const roleGroup = data.relationships.role_group?.data.id;
  const next: StoredResource = {
    ...grant,
    rels: { ...grantee, ...(role && { role }), ...(roleGroup && { role_group: roleGroup }) },
    meta: { ...grant.meta, updated_at: new Date().toISOString() },
    version: grant.version + 1,
  };
  const check =
    role && !builtInRoles.has(role)
      ? { check: roles.keyOf(grant.org_id, role), pointer: '/data/relationships/role/data/id' }
      : roleGroup
        ? {
            check: roleGroups.keyOf(grant.org_id, roleGroup),
            pointer: '/data/relationships/role_group/data/id',
          }
        : null;
  await commit(scope, [{ replace: next }, ...(check ? [{ check: check.check }] : [])]).catch(
    (error: unknown) => {
      if (error instanceof WriteRefused && error.op === 1 && check) {
        throw new ValidationError({
          detail: 'No such record in this organisation.',
          source: { pointer: check.pointer },
        });
      }
      if (error instanceof WriteRefused)
        throw new ConflictError('The grant changed meanwhile; read it again and retry.');
      throw error;
    },
  );
  return next;
};
