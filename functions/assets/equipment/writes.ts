/**
 * Equipment items. `serial` is unique within an organisation: a claim item on the serial commits with
 * the item (of N concurrent creates with one serial exactly one succeeds; the rest are 409), and a
 * changed serial moves its claim in the same transaction. The `vehicle` link is kept on both sides
 * (the vehicle's `equipment` list), and `inherited_categories` are copied from the model when it is set.
 */

import * as z from 'zod';
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { getInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredRelationship, StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import type { WriteOp, WriteRefused } from '#shared/data/transaction';
import {
  changedRecord,
  createRecord,
  deleteRecord,
  newRecord,
  relationshipSchema,
  replaceRecord,
  storedRelationships,
} from '#shared/engine/record-writes';
import type { SimpleCrud } from '#shared/engine/simple-crud';
import { freeText, line, requiredLine, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import {
  carriedAttribute,
  EQUIPMENT_STATUSES,
  equipmentItems,
  equipmentModels,
  vehicles,
} from '../definitions';

const attributes = {
  reference: line(100).optional(),
  serial: requiredLine(100),
  asset_number: line(100).optional(),
  is_rented: z.boolean().optional(),
  purchased_at: timestamp.optional(),
  vibration_source: z.boolean().optional(),
  vibration_magnitude: z.number().min(0).max(1000).optional(),
  description: freeText(2000).optional(),
  status: z.enum(EQUIPMENT_STATUSES).optional(),
};
const writable = ['manufacturer', 'model', 'categories', 'vehicle'] as const;
const relationships = z.lazy(() =>
  z
    .strictObject(
      Object.fromEntries(writable.map((name) => [name, relationshipSchema(equipmentItems, name).optional()])),
    )
    .optional(),
);

export const createEquipmentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('equipment-items'),
      attributes: z.strictObject(attributes),
      relationships,
    }),
  }),
);
export const updateEquipmentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('equipment-items'),
      id: z.uuid(),
      attributes: z.strictObject(attributes).partial().optional(),
      relationships,
    }),
  }),
);

const keys = /* @__PURE__ */ declareAccessPatterns('assets/equipment/writes', {
  'serial-claim': {
    ...tenantPattern('equipment-serials', '{serial}'),
    about: '`holder_id`: one item per serial',
  },
});
const serialClaim = (orgId: string, serial: string) =>
  keyFrom(keys['serial-claim'], { org_id: orgId, serial });

/** What a refused op means: a taken serial is 409; a vehicle link on a missing vehicle is 400. */
const explain =
  (ops: WriteOp[]) =>
  (error: WriteRefused): never => {
    const op = error.op === undefined ? undefined : ops[error.op - 1];
    if (op && 'claim' in op) {
      throw new ConflictError('Another equipment item in this organisation has this serial.', {
        pointer: '/data/attributes/serial',
      });
    }
    if (op && 'keep' in op && Object.values(op.keep.set ?? {}).some((v) => v !== null)) {
      throw new ValidationError({
        detail: 'No such vehicle in this organisation.',
        source: { pointer: '/data/relationships/vehicle/data' },
      });
    }
    throw new ConflictError('The record changed while this request was applied; read it again and retry.');
  };

/** The model's categories, copied onto the item as `inherited_categories`. */
const inheritedCategories = async (scope: Scope, orgId: string, modelId: StoredRelationship | undefined) => {
  if (typeof modelId !== 'string') return [];
  const model = await getInScope(scope, equipmentModels.keyOf, modelId);
  return model?.org_id === orgId && Array.isArray(model.rels.categories) ? model.rels.categories : [];
};

/**
 * Ops that move the item between vehicles, each kept on the vehicle's own record without reading it: the
 * new vehicle's also proves it exists; the old one's is refused if it is gone (the write retries as 409).
 */
const vehicleOps = (item: StoredResource, from: StoredRelationship, to: StoredRelationship): WriteOp[] => {
  if (from === to) return [];
  const carried = (id: StoredRelationship, value: string | null): WriteOp[] =>
    typeof id === 'string'
      ? [{ keep: { key: vehicles.keyOf(item.org_id, id), set: { [carriedAttribute(item.id)]: value } } }]
      : [];
  return [...carried(from, null), ...carried(to, item.id)];
};

/** Carrying an item on a vehicle allocates it there, from now: `allocated_vehicle` with `meta.starts_at`. */
const allocatedVehicle = (vehicle: StoredRelationship | undefined, now: Date) => ({
  allocated_vehicle:
    typeof vehicle === 'string' ? { id: vehicle, meta: { starts_at: now.toISOString() } } : null,
});

/** Relationships whose targets a check must prove: the vehicle is proven by its link op instead. */
const checked = ({
  vehicle: _vehicle,
  allocated_vehicle: _allocated,
  inherited_categories: _inherited,
  ...rels
}: Record<string, StoredRelationship>) => rels;

export const createEquipment = async (
  scope: Scope,
  orgId: string,
  body: unknown,
): Promise<StoredResource> => {
  const { data } = parseDocument(createEquipmentDocument, body);
  const rels = storedRelationships(data.relationships as never);
  const item = newRecord(equipmentItems, orgId, {
    attributes: { status: 'active', ...data.attributes },
    rels: {
      ...rels,
      inherited_categories: await inheritedCategories(scope, orgId, rels.model),
      ...allocatedVehicle(rels.vehicle, new Date()),
    },
  });
  const extra: WriteOp[] = [
    { claim: serialClaim(orgId, data.attributes.serial) },
    ...vehicleOps(item, null, rels.vehicle ?? null),
  ];
  return createRecord(scope, equipmentItems, item, extra, explain(extra), checked(rels));
};

export const updateEquipment = async (
  scope: Scope,
  item: StoredResource,
  body: unknown,
): Promise<StoredResource> => {
  const { data } = parseDocument(updateEquipmentDocument, body);
  assertSameId(data.id, item.id);
  const rels = storedRelationships(data.relationships as never);
  if ('model' in rels) rels.inherited_categories = await inheritedCategories(scope, item.org_id, rels.model);
  if ('vehicle' in rels && rels.vehicle !== item.rels.vehicle)
    Object.assign(rels, allocatedVehicle(rels.vehicle, new Date()));
  const next = changedRecord(equipmentItems, item, { attributes: data.attributes ?? {}, rels });
  const oldSerial = String(item.attributes.serial);
  const newSerial = String(next.attributes.serial);
  const extra: WriteOp[] = [
    ...(newSerial === oldSerial
      ? []
      : [{ remove: serialClaim(item.org_id, oldSerial) }, { claim: serialClaim(item.org_id, newSerial) }]),
    ...('vehicle' in rels ? vehicleOps(item, item.rels.vehicle ?? null, rels.vehicle ?? null) : []),
  ];
  return replaceRecord(
    scope,
    equipmentItems,
    { replace: next, was: item },
    checked(rels),
    extra,
    explain(extra),
  );
};

export const deleteEquipment = async (scope: Scope, item: StoredResource): Promise<void> => {
  await deleteRecord(scope, item, [
    { remove: serialClaim(item.org_id, String(item.attributes.serial)) },
    ...vehicleOps(item, item.rels.vehicle ?? null, null),
  ]);
};

export const equipmentCrud: SimpleCrud = {
  definition: equipmentItems,
  documents: { create: createEquipmentDocument, update: updateEquipmentDocument },
  create: createEquipment,
  update: updateEquipment,
  remove: deleteEquipment,
};
