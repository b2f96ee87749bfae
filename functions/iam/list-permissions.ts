import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { iamPermissions } from './definitions';
import { permissionRecords } from './virtual-records';

/** GET /v3/iam/permissions: the permission catalogue, read-only. */
export const handler = jsonApiHandler('listPermissions', (request) =>
  listInMemory(request, iamPermissions, permissionRecords),
);
