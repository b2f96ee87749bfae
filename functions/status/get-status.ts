import { config } from '#shared/config';
import { pingTable } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { metaDocument } from '#shared/jsonapi/document';

/** GET /v3/status: 200 once the table answers, 503 while it does not. No authentication. */
export const handler = jsonApiHandler('getStatus', async () => {
  const database = await pingTable().then(
    () => 'available' as const,
    () => 'unavailable' as const,
  );
  const status = database === 'available' ? 'available' : 'degraded';
  return new Reply(
    database === 'available' ? 200 : 503,
    metaDocument({ status, stage: config.STAGE, api_version: '1.0.0', checks: { database } }),
  );
});
