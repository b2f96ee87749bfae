import { getHandler } from '#shared/http/crud-handlers';
import { deviceBackups } from '#shared/resources/device-backups/definitions';

/** GET /v3/device-backups/{device_backup_id}: 404 once expired. */
export const handler = getHandler('getDeviceBackup', deviceBackups, 'device_backup_id');
