/**
 * The types a route answers with and those its answer can include: the OpenAPI document describes their
 * resource objects, and an area's bundle keeps the modules their declarations load lazily (`area-bundle.ts`).
 */
import { targetTypes } from '#shared/engine/relationship-targets';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import type { Answer, Route } from '#shared/http/route';
import { resourceTypes } from '#shared/routes';

/** A declared endpoint answers as its operation does; any other route says what it answers. */
export const answerOf = (route: Route): Answer => {
  if (route.answers) return route.answers;
  const { declared } = route;
  if (!declared) throw new Error(`${route.id} is no declared endpoint and names no answers`);
  const { type } = declared.resource;
  switch (declared.operation) {
    case 'list':
      return { status: 200, collection: type };
    case 'create':
      return { status: 201, resource: type };
    case 'delete':
      return { status: 204 };
    default:
      return { status: 200, resource: type };
  }
};

/** The types `include` can bring in from a type, following each declared include path (through each type a polymorphic link may name). */
export const includedTypes = (
  definition: ResourceDefinition | undefined,
  paths: readonly string[],
): string[] => {
  const types = new Set<string>();
  const follow = (at: ResourceDefinition | undefined, [name, ...rest]: string[]) => {
    const target = name === undefined ? undefined : at?.relationships[name];
    if (!target) return;
    for (const type of targetTypes(target)) {
      types.add(type);
      follow(resourceTypes.get(type), rest);
    }
  };
  for (const path of paths) follow(definition, path.split('.'));
  return [...types];
};

/** Every type the route's answer is, or can include. */
export const typesOf = (route: Route): string[] => {
  if (!route.answers && !route.declared) return []; // the fallback: errors only
  const answer = answerOf(route);
  const answered = [answer.resource ?? [], answer.collection ?? []].flat();
  const definition = resourceTypes.get(route.declared?.resource.type ?? answer.resource ?? '');
  return [...new Set([...answered, ...includedTypes(definition, definition?.collection?.includes ?? [])])];
};
