import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { deviceBackups } from './definitions';
import { backupDownload } from './writes';

/** GET /v3/device-backups/{device_backup_id}/content: 303 to a presigned GET; 404 once expired. */
export const handler = jsonApiHandler('downloadDeviceBackup', async (request) => {
  const backup = await readInScope(request.scope, deviceBackups, request.params.device_backup_id);
  return new Reply(303, undefined, { Location: await backupDownload(backup) });
});
