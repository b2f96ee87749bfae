import { getHandler } from '#shared/http/crud-handlers';
import { deviceBackupRequests } from '#shared/resources/device-backups/definitions';

/** GET /v3/orgs/{org_id}/device-backup-requests/{device_backup_request_id}: seen by those who may list them (devices). */
export const handler = getHandler('getDeviceBackupRequest', deviceBackupRequests, 'device_backup_request_id');
