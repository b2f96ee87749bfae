import { createHandler } from '#shared/engine/crud-handlers';
import { deviceBackups } from '#shared/resources/device-backups/definitions';
import { createBackup } from '#shared/resources/device-backups/writes';

export { createBackupDocument as requestBody } from '#shared/resources/device-backups/writes';

/** POST /v3/orgs/{org_id}/device-backups: the device's backup record; 201 with `meta.upload` (presigned PUT). */
export const handler = createHandler('createDeviceBackup', {
  definition: deviceBackups,
  create: createBackup,
});
