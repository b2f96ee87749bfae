/**
 * The handler of a generic endpoint, built from its route's declaration: list and get read the declared
 * type; create, update and delete apply the declared write schema (`simpleCrud`). A declared resource
 * therefore needs no handler file for what it does like every other resource.
 */

import { parameterNames } from '../http/path-template';
import type { Route } from '../http/route';
import {
  createHandler,
  deleteHandler,
  getHandler,
  listHandler,
  transitionHandler,
  updateHandler,
} from './crud-handlers';
import { declaredType } from './resource-definition';

export const handlerFor = async (route: Route) => {
  if (!route.declared) throw new Error(`${route.id} is not a declared resource's endpoint`);
  const { operation } = route.declared;
  // The route names only what the HTTP layer reads of its type; the engine reads the whole declaration.
  const resource = declaredType(route.declared.resource.type);
  if (!resource) throw new Error(`${route.declared.resource.type} is not a declared type`);
  const idParam = parameterNames(route.path).at(-1) ?? '';
  if (operation === 'list') return listHandler(route, resource);
  if (operation === 'get') return getHandler(route, resource, idParam);
  if (route.declared.operation === 'transition')
    return transitionHandler(route, resource, idParam, route.declared.verb);
  // The write machinery and its schemas (zod) load with a write's handler, never with a read's.
  const crud = await (await import('./simple-crud')).declaredCrud(resource);
  if (operation === 'create') return createHandler(route, crud);
  if (operation === 'update') return updateHandler(route, crud, idParam);
  return deleteHandler(route, crud, idParam);
};
