import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { iamPermissions } from '#shared/resources/iam/definitions';
import { permissionRecords } from '#shared/resources/iam/virtual-records';

/** GET /v3/iam/permissions: the permission catalogue, read-only. */
export const handler = jsonApiHandler('listPermissions', (request) =>
  listInMemory(request, iamPermissions, permissionRecords),
);
