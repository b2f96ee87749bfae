import { COMPLIANT_WITH, compliantReader } from '#functions/qualifications/compliance';
import { listResources, without } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { users } from './users';

export const queryParameters = {
  [COMPLIANT_WITH]: {
    description:
      'A qualification specification id: only the users who meet it today (their approved, unexpired awards).',
    schema: { type: 'string', format: 'uuid' },
  },
} satisfies OwnQueryParameters;

/** GET /v3/orgs/{org_id}/people/users, and who meets a specification (`filter[compliant_with]`). */
export const handler = jsonApiHandler('listUsers', async (request) => {
  const specification = request.query[COMPLIANT_WITH];
  if (specification === undefined) return listResources(request, users);
  const reader = await compliantReader(request.scope, request.params.org_id, specification);
  return listResources(request, users, reader, without(request.query, [COMPLIANT_WITH]));
});
