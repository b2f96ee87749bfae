/**
 * A PATCH of a declared type naming its machine's attribute is 400 at it, naming the transitions that
 * move it instead, unless the machine declares the PATCH an alias of its moves (`patchAlias`). It runs on
 * every update route, generic or bespoke, so no handler can forget it; after authorisation, before the
 * handler parses the body, so the answer says where to go rather than that the member is unknown.
 */
import { ValidationError } from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';
import type { DeclaredResource, Route } from '../route';

export const refuseStateInPatch = (resource: Pick<DeclaredResource, 'lifecycle'>, body: unknown): void => {
  const { lifecycle } = resource;
  if (!lifecycle?.attribute || lifecycle.patchAlias) return;
  const attributes = (body as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (typeof attributes !== 'object' || attributes === null || !(lifecycle.attribute in attributes)) return;
  const verbs = Object.entries(lifecycle.transitions)
    .filter(([, transition]) => transition.by !== 'worker')
    .map(([verb]) => `POST …/${verb}`);
  throw new ValidationError({
    detail: `${lifecycle.attribute} is changed by a transition, not a PATCH: ${verbs.join(', ')}.`,
    source: { pointer: `/data/attributes/${lifecycle.attribute}` },
  });
};

export const stateNotPatched = (route: Route): ApiMiddleware => ({
  before: (request) => {
    const { declared } = route;
    if (declared?.operation !== 'update' || !declared.resource.lifecycle) return;
    refuseStateInPatch(declared.resource, request.event.body);
  },
});
