import { listHandler } from '#shared/http/crud-handlers';
import { deviceBackupRequests } from '#shared/resources/device-backups/definitions';

/** GET /v3/orgs/{org_id}/device-backup-requests: what devices are asked for (`filter[device]`, `filter[status]=open`). */
export const handler = listHandler('listDeviceBackupRequests', deviceBackupRequests);
