/**
 * Vehicle inventory checks: which of the organisation's equipment was present, working and certified
 * at an inspection. `meta.summary` is recomputed from the items on every write; every item's
 * equipment must exist in the organisation (checked in the write's transaction, 400 at the item).
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import type { SimpleCrud } from '#shared/engine/simple-crud';
import { timestamp } from '#shared/jsonapi/attribute-types';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { equipmentItems, vehicleInventoryChecks, vehicles } from '../definitions';
import { summariseInventory } from '../rules/inventory-summary';

const flag = z.lazy(() => z.boolean().nullable().optional());
const items = z.lazy(() =>
  z
    .array(z.strictObject({ equipment_id: z.uuid(), present: flag, working: flag, certified: flag }))
    .max(200)
    .refine(
      (list) => new Set(list.map((i) => i.equipment_id)).size === list.length,
      'An equipment item is listed twice.',
    ),
);

const createInventoryCheckDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('vehicle-inventory-checks'),
      attributes: z.strictObject({ inspected_at: timestamp, items }),
      relationships: z.strictObject({
        vehicle: z.strictObject({ data: z.strictObject({ type: z.literal('vehicles'), id: z.uuid() }) }),
      }),
    }),
  }),
);
const updateInventoryCheckDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('vehicle-inventory-checks'),
      id: z.uuid(),
      attributes: z.strictObject({ inspected_at: timestamp.optional(), items: items.optional() }).optional(),
    }),
  }),
);

type Items = z.infer<typeof items>;

/** Attributes, summary and the `equipment` relationship, all derived from the same items. */
const derived = (checkItems: Items) => ({
  meta: { summary: summariseInventory(checkItems) },
  rels: { equipment: checkItems.map((i) => i.equipment_id) },
});

const itemChecks = (orgId: string, checkItems: Items) =>
  checkItems.map((item, i) => ({
    op: { check: equipmentItems.keyOf(orgId, item.equipment_id) } as WriteOp,
    pointer: `/data/attributes/items/${i}/equipment_id`,
  }));

export const inventoryCheckCrud: SimpleCrud = {
  definition: vehicleInventoryChecks,
  documents: { create: createInventoryCheckDocument, update: updateInventoryCheckDocument },
  create: async (scope: Scope, orgId: string, body: unknown, author?: Principal | null) => {
    const { data } = parseDocument(createInventoryCheckDocument, body);
    const { meta, rels } = derived(data.attributes.items);
    const check = newRecord(vehicleInventoryChecks, orgId, {
      attributes: data.attributes,
      meta,
      rels: {
        ...rels,
        vehicle: data.relationships.vehicle.data.id,
        author: author?.kind === 'user' ? author.id : null,
      },
    });
    await commitChecked(
      scope,
      [{ create: check }],
      [
        {
          op: { check: vehicles.keyOf(orgId, data.relationships.vehicle.data.id) },
          pointer: '/data/relationships/vehicle/data',
        },
        ...itemChecks(orgId, data.attributes.items),
      ],
    );
    return check;
  },
  update: async (scope: Scope, check: StoredResource, body: unknown) => {
    const { data } = parseDocument(updateInventoryCheckDocument, body);
    assertSameId(data.id, check.id);
    const nextItems = data.attributes?.items;
    const next = changedRecord(vehicleInventoryChecks, check, {
      attributes: data.attributes ?? {},
      ...(nextItems && derived(nextItems)),
    });
    await commitChecked(
      scope,
      [{ replace: next, was: check }],
      nextItems ? itemChecks(check.org_id, nextItems) : [],
    );
    return next;
  },
  remove: () =>
    Promise.reject(new Error('Inventory checks are records of an inspection: they are not deleted.')),
};
