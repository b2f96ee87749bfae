/**
 * Effective permissions: the union, per organisation, of the permissions of every role reached by the
 * caller's grants: granted directly, through a role group, or to a team the caller belongs to. Pure.
 */
import { isPermission, type Permission, permissions } from './permissions';

/**
 * What a viewer does about themselves: their own profile, signing themselves in and out at a site, and the
 * actions they are party to.
 */
const SELF_SERVICE: ReadonlySet<string> = new Set(['users:self', 'site-attendances:self', 'actions:self']);

/** Built-in roles exist in every organisation; their ids are fixed strings, custom roles have UUIDs. */
export const builtInRoles: ReadonlyMap<
  string,
  { name: string; description: string; permissions: readonly Permission[] }
> = new Map([
  // Read from the catalogue when asked: it is registered once the composition root has assembled it.
  [
    'admin',
    {
      name: 'Administrator',
      description: 'Every permission in the catalogue.',
      get permissions() {
        return permissions();
      },
    },
  ],
  [
    'viewer',
    {
      name: 'Viewer',
      description:
        'Read-only: every view permission, changing one’s own profile, and signing oneself in and out of sites.',
      get permissions() {
        return permissions().filter((p) => p.endsWith(':view') || SELF_SERVICE.has(p));
      },
    },
  ],
]);

export interface GrantFacts {
  org_id: string;
  /** The role or role group granted (exactly one is set). */
  role?: string;
  role_group?: string;
}

export interface RoleFacts {
  id: string;
  permissions: readonly string[];
}

export interface RoleGroupFacts {
  id: string;
  roles: readonly string[];
}

export type EffectivePermissions = ReadonlyMap<string, ReadonlySet<Permission>>;

export const effectivePermissions = (
  grants: readonly GrantFacts[],
  customRoles: ReadonlyMap<string, RoleFacts>,
  roleGroups: ReadonlyMap<string, RoleGroupFacts>,
): EffectivePermissions => {
  const byOrg = new Map<string, Set<Permission>>();
  const rolePermissions = (id: string): readonly string[] =>
    builtInRoles.get(id)?.permissions ?? customRoles.get(id)?.permissions ?? [];
  for (const grant of grants) {
    const roles = grant.role ? [grant.role] : (roleGroups.get(grant.role_group ?? '')?.roles ?? []);
    const set = byOrg.get(grant.org_id) ?? new Set<Permission>();
    for (const role of roles) {
      for (const p of rolePermissions(role)) if (isPermission(p)) set.add(p);
    }
    byOrg.set(grant.org_id, set);
  }
  return byOrg;
};

/** The roles and role groups a set of grants refers to, so they can be read in one batch. */
export const referencedIds = (grants: readonly GrantFacts[]) => ({
  roles: [...new Set(grants.flatMap((g) => (g.role && !builtInRoles.has(g.role) ? [g.role] : [])))],
  roleGroups: [...new Set(grants.flatMap((g) => (g.role_group ? [g.role_group] : [])))],
});
