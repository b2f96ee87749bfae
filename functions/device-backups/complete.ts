import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { deviceBackups } from './definitions';
import { completeBackup } from './writes';

/** POST /v3/device-backups/{device_backup_id}/complete: the uploader checks in the stored file. */
export const handler = jsonApiHandler('completeDeviceBackup', async (request) => {
  const backup = await readInScope(request.scope, deviceBackups, request.params.device_backup_id);
  return resourceResponse(
    request,
    deviceBackups,
    await completeBackup(request.scope, backup, request.principal),
  );
});
