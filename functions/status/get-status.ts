import { config } from '#shared/config';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { metaDocument } from '#shared/jsonapi/document';
import { databaseStatus } from './database-status';

/** GET /v3/status: 200 once the table answers, 503 while it does not. No authentication. */
export const handler = jsonApiHandler('getStatus', async () => {
  const database = await databaseStatus();
  const status = database === 'available' ? 'available' : 'degraded';
  return new Reply(
    database === 'available' ? 200 : 503,
    metaDocument({ status, stage: config.STAGE, api_version: '1.0.0', checks: { database } }),
  );
});
