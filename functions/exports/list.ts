import { listKept } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { exportsDefinition, keptExports } from './definitions';

/** GET /v3/orgs/{org_id}/exports: the caller's own exports of the last 30 days. */
export const handler = jsonApiHandler('listExports', (request) =>
  listKept(request, exportsDefinition, keptExports(request.params.org_id ?? '', request.principal?.id ?? '')),
);
