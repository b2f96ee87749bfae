import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { NotFoundError } from '#shared/jsonapi/errors';
import { exportsDefinition } from './definitions';
import { isCreator, withDownload } from './run';

/** GET /v3/exports/{export_id}: the creator's own export with a fresh `meta.download`; anyone else 404. */
export const handler = jsonApiHandler('getExport', async (request) => {
  const record = await readInScope(request.scope, exportsDefinition, request.params.export_id);
  if (!isCreator(record, request.principal)) throw new NotFoundError();
  return resourceResponse(request, exportsDefinition, await withDownload(record));
});
