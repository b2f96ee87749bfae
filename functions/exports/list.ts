import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listPartition } from '#shared/resources/collection';
import { exportsDefinition } from '#shared/resources/exports/definitions';
import { isCreator } from '#shared/resources/exports/run';

/** GET /v3/orgs/{org_id}/exports: the caller's own exports of the last 30 days. */
export const handler = jsonApiHandler('listExports', (request) =>
  listPartition(request, exportsDefinition, request.params.org_id, (r) => isCreator(r, request.principal)),
);
