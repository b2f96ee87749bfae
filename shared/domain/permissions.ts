/**
 * The permission catalogue: every permission a route can require, `<resource>:<action>`, with what it
 * allows. Each area declares the permissions it owns in its manifest (`defineArea(…, { permissions })`);
 * the composition root (`shared/routes.ts`) assembles them in area order and registers the catalogue
 * here once, when it loads, as it registers the route table. Served read-only at GET /v3/iam/permissions.
 *
 * The type comes the same way: `shared/routes.ts` merges the declared names into `PermissionTable`
 * (declaration merging), so `Permission` stays a union of literals and a misspelt permission fails to
 * compile, while nothing here (or in the layers that name a permission) imports an area.
 */

/**
 * A permission's name as areas write it in their manifests and declarations, before the catalogue is
 * assembled (naming `Permission` there would make each manifest's type depend on every manifest's); the
 * composition root checks at compile time that each one is a declared `Permission`.
 */
export type PermissionName = `${string}:${string}`;

/** What an area's manifest declares: each permission it owns, with what it allows. */
export type PermissionDeclarations = Readonly<Record<PermissionName, string>>;

/** Filled by `shared/routes.ts` with `{ permission: <the union of the declared names> }`. */
// biome-ignore lint/suspicious/noEmptyInterface: an interface merged from the composition root, empty here by design.
export interface PermissionTable {}

/** A permission of the assembled catalogue (any `<resource>:<action>` before it is merged). */
export type Permission = PermissionTable extends { permission: infer Declared extends string }
  ? Declared
  : `${string}:${string}`;

let registered: ReadonlyMap<string, string> | undefined;

/** Called once by the composition root with the catalogue it assembles, in its order. */
export const registerPermissions = (catalogue: ReadonlyMap<Permission, string>): void => {
  registered = catalogue;
};

const catalogue = () => {
  if (!registered)
    throw new Error('no permission catalogue registered: import shared/routes.ts before reading it');
  return registered;
};

/** Every permission with what it allows, in the catalogue's order. */
export const permissionCatalogue = (): ReadonlyMap<Permission, string> =>
  catalogue() as ReadonlyMap<Permission, string>;

/** Every permission's name, in the catalogue's order. */
export const permissions = (): Permission[] => [...catalogue().keys()] as Permission[];

export const isPermission = (name: string): name is Permission => catalogue().has(name);
