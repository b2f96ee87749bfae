import { jsonApiHandler } from '../http/json-api-handler';
import { created, Reply } from '../http/reply';
import type { Route } from '../http/route';
import { type RouteId, routeById } from '../http/route-table';
import { listResources } from './collection';
import { declaredType, type ResourceDefinition } from './resource-definition';
import type { SimpleCrud } from './simple-crud';
import { notFound, readForMove, readInScope, resourceResponse } from './single';

/** Generic handlers read parameters by name (the id parameter is the route's last). */
const routeOf = (id: RouteId | Route): Route => (typeof id === 'string' ? routeById(id) : id);

export const listHandler = (routeId: RouteId | Route, definition: ResourceDefinition) =>
  jsonApiHandler(routeOf(routeId), (request) => listResources(request, definition));

export const getHandler = (routeId: RouteId | Route, definition: ResourceDefinition, idParam: string) => {
  const route = routeOf(routeId);
  return jsonApiHandler(route, async (request) => {
    const id = request.params[idParam] ?? '';
    const record = await readInScope(request.scope, definition, id);
    // Reached by the route's `party` permission alone: only the record's parties read it (`readByParty`).
    const { principal } = request;
    const viewer =
      !route.party || principal?.permissions.get(record.org_id)?.has(route.permission as never) === true;
    if (!viewer && !(principal && definition.readByParty?.(record, principal)))
      throw notFound(definition, id);
    return resourceResponse(request, definition, record);
  });
};

export const createHandler = (routeId: RouteId | Route, crud: Pick<SimpleCrud, 'definition' | 'create'>) =>
  jsonApiHandler(routeOf(routeId), async (request) => {
    const record = await crud.create(
      request.scope,
      request.params.org_id ?? '',
      request.body,
      request.principal,
    );
    return created(await resourceResponse(request, crud.definition, record));
  });

export const updateHandler = (
  routeId: RouteId | Route,
  crud: Pick<SimpleCrud, 'definition' | 'update'>,
  idParam: string,
) =>
  jsonApiHandler(routeOf(routeId), async (request) => {
    const record = await readInScope(request.scope, crud.definition, request.params[idParam] ?? '');
    return resourceResponse(request, crud.definition, await crud.update(request.scope, record, request.body));
  });

/**
 * `POST <itemPath>/<verb>`: a declared transition (`transition.ts`), answering the record as moved, or the
 * record of another type the transition `answers` (a version's completion answers its document).
 */
export const transitionHandler = (
  route: Route,
  definition: ResourceDefinition,
  idParam: string,
  verb: string,
) =>
  jsonApiHandler(route, async (request) => {
    const record = await readForMove(request.scope, definition, request.params[idParam] ?? '');
    // The write machinery (and zod, for its input) loads with a move, never with a read's handlers.
    const { moveAnswering } = await import('./transition');
    const moved = await moveAnswering(request.scope, definition, record, verb, {
      principal: request.principal,
      body: request.body,
    });
    const answers = definition.lifecycle?.transitions[verb]?.answers;
    const answered = answers === undefined ? undefined : declaredType(answers);
    if (answers !== undefined && (!answered || !moved.answer))
      throw new Error(`${definition.type}'s ${verb} answers ${answers}, which its writes do not give`);
    return answered && moved.answer
      ? resourceResponse(request, answered, moved.answer)
      : resourceResponse(request, definition, moved.record);
  });

export const deleteHandler = (
  routeId: RouteId | Route,
  crud: Pick<SimpleCrud, 'definition' | 'remove'>,
  idParam: string,
) =>
  jsonApiHandler(routeOf(routeId), async (request) => {
    await crud.remove(
      request.scope,
      await readInScope(request.scope, crud.definition, request.params[idParam] ?? ''),
    );
    return new Reply(204, undefined);
  });
