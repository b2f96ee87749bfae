import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listPartition } from '#shared/resources/collection';
import { deviceBackups } from '#shared/resources/device-backups/definitions';

/** GET /v3/orgs/{org_id}/device-backups: the live (≤ 30 days old) backups; expired ones are never listed. */
export const handler = jsonApiHandler('listDeviceBackups', (request) =>
  listPartition(request, deviceBackups, request.params.org_id),
);
