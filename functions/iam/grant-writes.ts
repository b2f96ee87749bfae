/**
 * Grants give a role or a role group to a user, a team or a service account within one organisation.
 * The grant commits only if the grantee, the custom role or the role group is a record of that
 * organisation: a principal of another organisation is refused exactly as an id that exists nowhere
 * (same check, same error), so a grant can neither reach across organisations nor tell which ids exist.
 * Access across organisations will come through bridges both sides accept, not through grants.
 */
import * as z from 'zod';
import { teams } from '#functions/people/teams';
import { heldNameAttribute, users } from '#functions/people/users';
import { uuidv7 } from '#shared/data/ids';
import { granteeIndexKey, type HeldGrant, heldGrantItem, heldGrantKey } from '#shared/data/principals';
import { batchGetInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { builtInRoles } from '#shared/domain/effective-permissions';
import { toStoredResource } from '#shared/engine/stored';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId } from '#shared/jsonapi/request-document';
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
type GranteeName = keyof typeof granteeTypes;

/** The grant record as stored, indexed by grantee; committing it is `createGrant`'s business. */
export const grantRecord = (
  orgId: string,
  rels: { role?: string; role_group?: string } & Partial<Record<GranteeName, string>>,
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

/**
 * Keeps a grant where its holders' own reads find it, in the grant's transaction: for each holder (its
 * grantee, or each member of the team it names) an item in the principal's partition, from which its
 * permissions are one Query, and on a holding user's record the name the grant gives (`meta.grants`).
 * `name` null: the grant is gone. A user's record must exist, so its op is also the grantee check.
 */
export const holdingOps = (
  grant: StoredResource,
  holders: readonly string[],
  name: string | null,
): WriteOp[] =>
  holders.flatMap((id): WriteOp[] => [
    name === null ? { remove: heldGrantKey(id, grant.id) } : { put: heldGrantItem(id, heldOf(grant)) },
    ...(grant.rels.service_account
      ? []
      : [{ keep: { key: users.keyOf(grant.org_id, id), set: { [heldNameAttribute(grant.id)]: name } } }]),
  ]);

/** What a holder keeps of a grant in its own partition: what it gives, where, and the team it came through. */
export const heldOf = (grant: StoredResource): HeldGrant => {
  const { role, role_group, team } = grant.rels as { role?: string; role_group?: string; team?: string };
  return { org_id: grant.org_id, grant_id: grant.id, role, role_group, team };
};

/** A grant written as a record directly, with what its holder keeps (tests' and the demo's bridges). */
export const grantWrites = (grant: StoredResource): WriteOp[] => [
  { create: grant },
  ...holdingOps(grant, [String(grant.rels.service_account ?? grant.rels.user)], String(grant.rels.role)),
];

/**
 * What a grant's writes read first, in one BatchGetItem: the team it names (whose members hold it) and
 * the custom role or role group it gives (whose name its holders show). Either absent is 400 at its
 * pointer, as an id that exists nowhere; both are checked again, at the version read, as the grant commits.
 */
const readGrantParts = async (
  scope: Scope,
  orgId: string,
  named: { team?: string; role?: string; role_group?: string },
) => {
  const parts = [
    { name: 'team', definition: teams, id: named.team },
    {
      name: 'role',
      definition: roles,
      id: named.role && !builtInRoles.has(named.role) ? named.role : undefined,
    },
    { name: 'role_group', definition: roleGroups, id: named.role_group },
  ].filter((p): p is typeof p & { id: string } => p.id !== undefined);
  const read = await batchGetInScope(
    scope,
    parts.map((p) => p.definition.keyOf(orgId, p.id)),
  );
  const found = parts.map((part) => {
    const record = read.find((r) => r.type === part.definition.type && r.id === part.id);
    if (!record)
      throw new ValidationError({
        detail: 'No such record in this organisation.',
        source: { pointer: `/data/relationships/${part.name}/data/id` },
      });
    return record;
  });
  const team = found.find((r) => r.type === teams.type);
  const given = found.find((r) => r.type !== teams.type);
  return {
    members: team && Array.isArray(team.rels.members) ? team.rels.members : undefined,
    /** What holders' `meta.grants` shows: a custom role's or group's name, a built-in role's id. */
    name: given ? String(given.attributes.name) : String(named.role),
    checks: found.map((r): WriteOp => ({ check: { pk: r.pk, sk: r.sk, version: r.version } })),
  };
};

const changedMeanwhile = () =>
  new ConflictError(
    'The grant, or the role, group or team it names, changed meanwhile; read it again and retry.',
  );

export const createGrant = async (
  scope: Scope,
  orgId: string,
  { data }: GrantDocument,
  now = new Date(),
): Promise<StoredResource> => {
  const r = data.relationships;
  const granteeName = (Object.keys(granteeTypes) as GranteeName[]).find((name) => r[name]);
  const granteeId = granteeName ? r[granteeName]?.data.id : undefined;
  if (!granteeName || !granteeId) throw new ValidationError({ detail: 'A grantee is required.' });
  const role = r.role?.data.id;
  const roleGroup = r.role_group?.data.id;
  if (role && !builtInRoles.has(role) && !z.uuid().safeParse(role).success) {
    throw new ValidationError({
      detail: 'No such role.',
      source: { pointer: '/data/relationships/role/data/id' },
    });
  }
  const { members, name, checks } = await readGrantParts(scope, orgId, {
    ...(granteeName === 'team' && { team: granteeId }),
    ...(role && { role }),
    ...(roleGroup && { role_group: roleGroup }),
  });
  const grant = grantRecord(
    orgId,
    { ...(role && { role }), ...(roleGroup && { role_group: roleGroup }), [granteeName]: granteeId },
    now,
  );
  const account: WriteOp[] =
    granteeName === 'service_account' ? [{ check: serviceAccounts.keyOf(orgId, granteeId) }] : [];
  const held = holdingOps(grant, members ?? [granteeId], name);
  await commit(scope, [{ create: grant }, ...account, ...checks, ...held]).catch((error: unknown) => {
    if (!(error instanceof WriteRefused) || error.op === undefined) throw error;
    // The service account, or the user whose record keeps the grant's name, is not the organisation's.
    if (error.op === 1 && account.length > 0) throw noSuchGrantee(granteeName);
    if (error.op > account.length + checks.length && granteeName === 'user') throw noSuchGrantee(granteeName);
    throw changedMeanwhile();
  });
  return grant;
};

const noSuchGrantee = (name: GranteeName) =>
  new ValidationError({
    detail: 'No such record in this organisation.',
    source: { pointer: `/data/relationships/${name}/data/id` },
  });

/** Revokes a grant: it and what each holder keeps of it go together. */
export const deleteGrant = async (scope: Scope, grant: StoredResource) => {
  const { members } = await readGrantParts(scope, grant.org_id, teamOf(grant));
  await commit(scope, [{ delete: grant }, ...holdingOps(grant, members ?? [granteeOf(grant)], null)]).catch(
    (error: unknown) => {
      throw error instanceof WriteRefused ? changedMeanwhile() : error;
    },
  );
};

const granteeOf = (grant: StoredResource) =>
  String(grant.rels.user ?? grant.rels.team ?? grant.rels.service_account);
const teamOf = (grant: StoredResource) =>
  typeof grant.rels.team === 'string' ? { team: grant.rels.team } : {};

/**
 * Who holds a stored grant (its grantee, or its team's members) and the name it gives them, with checks
 * pinning the team, role or group read at their versions: a grant stored before its holders kept it is
 * kept by `holdingOps` from these (migration 13, `migrations/held-grants.ts`).
 */
export const holdingOf = async (scope: Scope, grant: StoredResource) => {
  const { members, name, checks } = await readGrantParts(scope, grant.org_id, {
    ...teamOf(grant),
    ...(typeof grant.rels.role === 'string' && { role: grant.rels.role }),
    ...(typeof grant.rels.role_group === 'string' && { role_group: grant.rels.role_group }),
  });
  return { holders: members ?? [granteeOf(grant)], name, checks };
};

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
  const { members, name, checks } = await readGrantParts(scope, grant.org_id, {
    ...teamOf(grant),
    ...(role && { role }),
    ...(roleGroup && { role_group: roleGroup }),
  });
  const next: StoredResource = {
    ...grant,
    rels: { ...grantee, ...(role && { role }), ...(roleGroup && { role_group: roleGroup }) },
    meta: { ...grant.meta, updated_at: new Date().toISOString() },
    version: grant.version + 1,
  };
  await commit(scope, [
    { replace: next, was: grant },
    ...checks,
    ...holdingOps(next, members ?? [granteeOf(grant)], name),
  ]).catch((error: unknown) => {
    throw error instanceof WriteRefused ? changedMeanwhile() : error;
  });
  return next;
};
