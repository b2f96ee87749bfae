/** The vehicle allocation relationship endpoints: one handler shape for every allocation kind. */

import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { routePath } from '#shared/http/links';
import type { RouteId } from '#shared/http/route-table';
import { jsonapi } from '#shared/jsonapi/document';
import { vehicles } from './definitions';
import { type AllocationKind, allocateVehicle, VEHICLE_ALLOCATION_UPDATED } from './vehicles/writes';

export const allocationHandler = (
  routeId: Extract<RouteId, `allocateVehicleTo${string}`>,
  kind: AllocationKind,
) =>
  jsonApiHandler(routeId, async ({ scope, params, body, baseUrl }) => {
    const vehicle = await readInScope(scope, vehicles, params.vehicle_id);
    const { linkage } = await allocateVehicle(scope, vehicle, kind, body);
    return {
      jsonapi,
      data: linkage,
      meta: { message: VEHICLE_ALLOCATION_UPDATED },
      // No `self`: the relationship URL takes PATCH only, and JSON:API asks that a self link can be
      // fetched. The allocation can be read on the vehicle, which `related` names.
      links: { related: `${baseUrl}${routePath('getVehicle', { vehicle_id: vehicle.id })}` },
    };
  });
