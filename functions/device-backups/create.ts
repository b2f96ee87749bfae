import { createHandler } from '#shared/engine/crud-handlers';
import { deviceBackups } from './definitions';
import { createBackup } from './writes';

export { createBackupDocument as requestBody } from './writes';

/** POST /v3/orgs/{org_id}/device-backups: the device's backup record; 201 with `meta.upload` (presigned PUT). */
export const handler = createHandler('createDeviceBackup', {
  definition: deviceBackups,
  create: createBackup,
});
