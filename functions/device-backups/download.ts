import { config } from '#shared/config';
import { presignDownload } from '#shared/data/files';
import type { StoredResource } from '#shared/data/stored-resource';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ConflictError } from '#shared/jsonapi/errors';
import { deviceBackups } from './definitions';

// Here, not with the writes, so that a download's first request loads no zod.
const backupDownload = (backup: StoredResource) => {
  if (backup.attributes.status !== 'available' || !backup.object_key)
    throw new ConflictError('This backup has not been completed yet.');
  return presignDownload(
    config.DEVICE_BACKUPS_BUCKET,
    backup.object_key,
    `${String(backup.attributes.device)}-${backup.id}.backup`,
  );
};

/** GET /v3/device-backups/{device_backup_id}/content: 303 to a presigned GET; 404 once expired. */
export const handler = jsonApiHandler('downloadDeviceBackup', async (request) => {
  const backup = await readInScope(request.scope, deviceBackups, request.params.device_backup_id);
  return new Reply(303, undefined, { Location: await backupDownload(backup) });
});
