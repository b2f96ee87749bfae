/**
 * Issue 42, item 7: a record keeps an id directory entry only where a route looks for it by its id alone
 * (`data/id-directory.ts`), so a create or delete of a type reached only through its organisation writes
 * one item less. The rule proven against the route table: every route that names no organisation and
 * ends in an id reaches records of types that keep their entries.
 */
import { describe, expect, it } from 'vitest';
import { keepsDirectoryEntry } from '#shared/data/id-directory';
import { parameterNames } from '#shared/http/path-template';
import { type Route, resourceTypes, routes } from '#shared/routes';

const lastParameter = (path: string) => parameterNames(path).at(-1);

/**
 * The types whose ids a route's last parameter may carry: its declared type, when that is its id (not a
 * parent's, as in `/v3/agents/{agent_id}/briefings`); else the types whose item path it extends
 * (`PATCH /v3/appointments/{appointment_id}`); else every type naming its id so.
 */
const typesReached = (route: Route): string[] => {
  const named = [...resourceTypes.values()].filter(
    (d) => d.itemPath && lastParameter(d.itemPath) === lastParameter(route.path),
  );
  const declared = route.declared?.resource.type;
  if (declared && named.some((d) => d.type === declared)) return [declared];
  const extended = named.filter((d) => d.itemPath && route.path.startsWith(d.itemPath));
  return (extended.length > 0 ? extended : named).map((d) => d.type);
};

describe('id directory entries are kept where a route finds a record by its id alone', () => {
  const bare = (routes as readonly Route[]).filter(
    (route) => !route.path.includes('{org_id}') && lastParameter(route.path) !== undefined,
  );

  it('every route naming no organisation reaches only types that keep their entries', () => {
    const missing = bare.flatMap((route) =>
      typesReached(route)
        .filter((type) => !keepsDirectoryEntry(type))
        .map((type) => `${route.method} ${route.path}: ${type}`),
    );
    expect(bare.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it('a type every route reaches through its organisation keeps none: equipment and manufacturers', () => {
    expect(keepsDirectoryEntry('equipment-items')).toBe(false);
    expect(keepsDirectoryEntry('equipment-manufacturers')).toBe(false);
    // Reached by id alone: a bare item path (vehicles), or a bare route of an organisation's type (agents).
    expect(keepsDirectoryEntry('vehicles')).toBe(true);
    expect(keepsDirectoryEntry('agents')).toBe(true);
  });
});
