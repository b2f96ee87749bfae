/** The vehicle allocation relationship endpoints: one handler shape for every allocation kind. */
import { jsonapi } from '../jsonapi/document';
import { vehicles } from '../resources/assets/definitions';
import {
  type AllocationKind,
  allocateVehicle,
  VEHICLE_ALLOCATION_UPDATED,
} from '../resources/assets/vehicles';
import { actorOf } from '../resources/audit/audit-events';
import { readInScope } from '../resources/single';
import type { RouteId } from '../routes';
import { jsonApiHandler } from './json-api-handler';

export const allocationHandler = (routeId: RouteId, kind: AllocationKind) =>
  jsonApiHandler(routeId, async ({ scope, params, body, principal, baseUrl }) => {
    const vehicle = await readInScope(scope, vehicles, params.vehicle_id ?? '');
    const { linkage } = await allocateVehicle(scope, vehicle, kind, body, actorOf(principal));
    return {
      jsonapi,
      data: linkage,
      meta: { message: VEHICLE_ALLOCATION_UPDATED },
      links: {
        self: `${baseUrl}/v3/vehicles/${vehicle.id}/relationships/${kind}`,
        related: `${baseUrl}/v3/vehicles/${vehicle.id}`,
      },
    };
  });
