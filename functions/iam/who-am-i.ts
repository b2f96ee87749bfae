import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import { resourceDocument } from '#shared/jsonapi/document';
import { UnauthorisedError } from '#shared/jsonapi/errors';

/** GET /v3/whoami: the caller, its organisations and its effective permissions in each. */
export const handler = jsonApiHandler('whoAmI', async (request) => {
  const { principal, baseUrl } = request;
  if (!principal) throw new UnauthorisedError();
  const organisations = [...principal.permissions].map(([id, granted]) => ({
    id,
    permissions: [...granted].sort(),
  }));
  return resourceDocument(request, {
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
  });
});
