import { jsonApiHandler } from '#shared/http/json-api-handler';
import { jsonapi } from '#shared/jsonapi/document';
import { UnauthorisedError } from '#shared/jsonapi/errors';
import { routePath } from '#shared/jsonapi/links';

/** GET /v3/whoami: the caller, its organisations and its effective permissions in each. */
export const handler = jsonApiHandler('whoAmI', async ({ principal, baseUrl }) => {
  if (!principal) throw new UnauthorisedError();
  const organisations = [...principal.permissions].map(([id, granted]) => ({
    id,
    permissions: [...granted].sort(),
  }));
  return {
    jsonapi,
    data: {
      type: 'whoami',
      id: principal.id,
      attributes: { kind: principal.kind, name: principal.name },
      meta: { organisations },
      relationships: {
        principal: {
          data: { type: principal.kind === 'user' ? 'users' : 'service-accounts', id: principal.id },
        },
        organisations: { data: organisations.map(({ id }) => ({ type: 'organisations', id })) },
      },
      links: { self: `${baseUrl}${routePath('whoAmI')}` },
    },
  };
});
