/**
 * The permissions some grants give, and the records that decide them: the role groups the grants name
 * and the custom roles those groups and the grants name (at most two BatchGetItems). A principal's
 * permissions are this over the grants it holds (`principal.ts`); what an invitation may give, and what
 * its inviter holds, are this too (people's `invitation-authority.ts`), which check the records read, at
 * the version read, as they commit.
 */
import { recordsByOrg } from '../data/principals';
import { keyId, resourceKey, type StoredResource } from '../data/stored-resource';
import {
  builtInRoles,
  type EffectivePermissions,
  effectivePermissions,
  type GrantFacts,
} from '../domain/effective-permissions';

const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** The records of `type` these (organisation, id) pairs name: those in `known`, then the rest read. */
const readMissing = async (
  type: string,
  refs: readonly { org_id: string; id: string }[],
  known: readonly StoredResource[],
) => {
  const have = new Map(known.filter((r) => r.type === type).map((r) => [keyId(r), r]));
  const found = new Map<string, StoredResource>();
  const missing: { org_id: string; id: string }[] = [];
  for (const ref of refs) {
    const key = keyId(resourceKey(ref.org_id, type, ref.id));
    const record = have.get(key);
    if (record) found.set(key, record);
    else missing.push(ref);
  }
  for (const record of await recordsByOrg(type, missing)) found.set(keyId(record), record);
  return [...found.values()];
};

/**
 * `known`: role groups and custom roles already read (an invitation's own), used as read so a commit
 * checks each record at one version. `of` evaluates any of the grants alone, against the records read.
 */
export const permissionsOfGrants = async (
  grants: readonly GrantFacts[],
  known: readonly StoredResource[] = [],
): Promise<{
  permissions: EffectivePermissions;
  read: StoredResource[];
  of: (some: readonly GrantFacts[]) => EffectivePermissions;
}> => {
  const groups = await readMissing(
    'role-groups',
    grants.flatMap((g) => (g.role_group ? [{ org_id: g.org_id, id: g.role_group }] : [])),
    known,
  );
  const roles = await readMissing(
    'roles',
    [
      ...grants.flatMap((g) => (g.role ? [{ org_id: g.org_id, id: g.role }] : [])),
      ...groups.flatMap((g) => idsIn(g.rels.roles).map((id) => ({ org_id: g.org_id, id }))),
    ].filter((r) => !builtInRoles.has(r.id)),
    known,
  );
  const customRoles = new Map(
    roles.map((r) => [r.id, { id: r.id, permissions: idsIn(r.attributes.permissions) }]),
  );
  const roleGroups = new Map(groups.map((g) => [g.id, { id: g.id, roles: idsIn(g.rels.roles) }]));
  const of = (some: readonly GrantFacts[]) => effectivePermissions(some, customRoles, roleGroups);
  return { permissions: of(grants), read: [...groups, ...roles], of };
};
