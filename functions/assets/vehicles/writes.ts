/**
 * Vehicles and their allocation. An allocation is mutually exclusive: setting one clears every other
 * (person, scheme, work order, location). The vehicle's new version, its `vehicle.allocated` event and
 * the check that the target exists in the organisation commit in one transaction; the audit consumer
 * makes the event an entry of the vehicle's audit-event history (`audit/consumer.ts`).
 */
import * as z from 'zod';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, commitChecked } from '#shared/engine/record-writes';
import { declaredType } from '#shared/engine/resource-definition';
import { declaredCrud } from '#shared/engine/simple-crud';
import { line, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, NotFoundError, ValidationError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';
import { allocationRelationships, carriedAttribute, vehicles } from '../definitions';

// The declared writes' schemas load with this module, which only writes load.
const crud = await declaredCrud(vehicles);

export const vehicleCrud = {
  ...crud,
  /** A vehicle still carrying equipment is not deleted: move or unassign the equipment first (409). */
  remove: async (scope: Scope, vehicle: StoredResource) => {
    const carried = Object.keys(vehicle).filter((name) => name.startsWith(carriedAttribute(''))).length;
    if (carried > 0)
      throw new ConflictError(`The vehicle still carries ${carried} equipment item(s); move them first.`);
    return crud.remove(scope, vehicle);
  },
};

export type AllocationKind = keyof typeof allocationRelationships;
export const VEHICLE_ALLOCATION_UPDATED = 'vehicle allocation updated';

const allocationDocument = (type: string) =>
  z.strictObject({
    data: z
      .strictObject({
        type: line(100),
        id: z.uuid(),
        meta: z.strictObject({ starts_at: timestamp.optional() }).optional(),
      })
      .refine((d) => d.type === type, { message: `type must be ${type}`, path: ['type'] })
      .nullable(),
    meta: z.strictObject({ starts_at: timestamp.optional() }).optional(),
  });

/** Each allocation's body, built once: its handler parses with it and the OpenAPI document shows it. */
export const allocationDocuments = Object.fromEntries(
  Object.entries(allocationRelationships).map(([kind, { type }]) => [
    kind,
    z.lazy(() => allocationDocument(type)),
  ]),
) as Record<AllocationKind, z.ZodLazy<ReturnType<typeof allocationDocument>>>;

/**
 * Allocates the vehicle to one target (or clears its allocation with `data: null`), replacing whatever
 * it was allocated to; `starts_at` defaults to now. Returns the new linkage.
 */
export const allocateVehicle = async (
  scope: Scope,
  vehicle: StoredResource,
  kind: AllocationKind,
  body: unknown,
  now = new Date(),
) => {
  const targetType = allocationRelationships[kind].type;
  const { data, meta } = parseDocument(allocationDocuments[kind], body);
  const startsAt = data?.meta?.starts_at ?? meta?.starts_at ?? now.toISOString();
  const cleared = Object.fromEntries(Object.keys(allocationRelationships).map((name) => [name, null]));
  const allocation = data ? { id: data.id, meta: { starts_at: startsAt } } : null;
  const next = changedRecord(vehicles, vehicle, { rels: { ...cleared, [kind]: allocation } }, now);
  const target = declaredType(targetType);
  if (data && !target) throw new NotFoundError(`No ${targetType} can be allocated to yet.`);
  const checks =
    data && target ? [{ op: { check: target.keyOf(vehicle.org_id, data.id) }, pointer: '/data/id' }] : [];
  await commitChecked(scope, [{ replace: next, was: vehicle, as: 'allocated' }], checks).catch(
    (error: unknown) => {
      // An allocation to something that is not in the organisation is "not found", like any foreign id.
      if (error instanceof ValidationError && error.source?.pointer === '/data/id') {
        throw new NotFoundError(`No such ${targetType} in this organisation.`);
      }
      throw error;
    },
  );
  return {
    vehicle: next,
    linkage: data ? { type: targetType, id: data.id, meta: { starts_at: startsAt } } : null,
  };
};
