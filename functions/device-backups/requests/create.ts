import { createHandler } from '#shared/engine/crud-handlers';
import { deviceBackupRequests } from '../definitions';
import { createRequest } from '../writes';

export { createRequestDocument as requestBody } from '../writes';

/** POST /v3/orgs/{org_id}/device-backup-requests: asks a device for a backup; 201. */
export const handler = createHandler('createDeviceBackupRequest', {
  definition: deviceBackupRequests,
  create: createRequest,
});
