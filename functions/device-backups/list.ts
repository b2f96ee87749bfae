import { applyInMemory } from '#shared/data/in-memory-collection';
import { readPartition } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { deviceBackups } from '#shared/resources/device-backups/definitions';

/** GET /v3/orgs/{org_id}/device-backups: the live (≤ 30 days old) backups; expired ones are never listed. */
export const handler = jsonApiHandler('listDeviceBackups', (request) =>
  listResources(request, deviceBackups, async (query) =>
    applyInMemory(await readPartition(request.scope, request.params.org_id ?? '', deviceBackups.type), query),
  ),
);
