/**
 * Permission names are `<resource>:<action>`. Built-in roles bundle them; grants give a role to a
 * principal within one organisation. Custom roles and role groups extend this (identity issue).
 */
export const permissions = [
  'organisations:view',
  'teams:view',
  'teams:manage',
  'feature-configurations:view',
  'feature-configurations:manage',
] as const;

export type Permission = (typeof permissions)[number];

export const builtInRoles = {
  admin: permissions,
  viewer: permissions.filter((p) => p.endsWith(':view')),
} as const satisfies Record<string, readonly Permission[]>;

export type BuiltInRole = keyof typeof builtInRoles;

export const isBuiltInRole = (role: string): role is BuiltInRole => Object.hasOwn(builtInRoles, role);

export const roleGrants = (role: string, permission: Permission): boolean =>
  isBuiltInRole(role) && (builtInRoles[role] as readonly Permission[]).includes(permission);
