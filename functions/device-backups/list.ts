import { listKept } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { deviceBackups, keptBackups } from './definitions';

/** GET /v3/orgs/{org_id}/device-backups: the live backups (kept 30 whole days); expired ones are never listed. */
export const handler = jsonApiHandler('listDeviceBackups', (request) =>
  listKept(request, deviceBackups, keptBackups(request.params.org_id ?? '')),
);
