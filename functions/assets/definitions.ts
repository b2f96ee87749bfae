/**
 * Assets: equipment items and the graph their includes walk (manufacturers, models, categories,
 * vehicle specifications, vehicles). Allocation relationships carry `meta.starts_at` on the identifier.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';

/** An equipment item's statuses: a new item is `active`. */
export const EQUIPMENT_STATUSES = ['active', 'inactive', 'in_repair', 'lost', 'retired'] as const;

/** Where an asset can be allocated; at most one is set at a time. */
export const allocationRelationships = {
  allocated_person: { type: 'users' },
  allocated_scheme: { type: 'schemes' },
  allocated_work_order: { type: 'work-orders' },
  allocated_location: { type: 'locations' },
} as const;

// Functions of the builders, loaded when the writes that call them run: a read loads no zod.
const name = ({ requiredLine }: SchemaBuilders) => requiredLine(200);
const description = ({ freeText }: SchemaBuilders) => freeText(2000).optional();

const named = {
  // The name's sort index answers `filter[name]` too (issue 42): a name is read where it sorts.
  filters: { name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' }, created_at: false },
  sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
  defaultSort: 'name',
} as const;

export const equipmentManufacturers = defineResource({
  type: 'equipment-manufacturers',
  names: { one: 'EquipmentManufacturer', many: 'EquipmentManufacturers' },
  collectionPath: '/v3/orgs/{org_id}/assets/equipment-manufacturers',
  itemPath: '/v3/orgs/{org_id}/assets/equipment-manufacturers/{equipment_manufacturer_id}',
  permission: 'assets',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    return {
      attributes: {
        name: name(builders),
        description: description(builders),
        website: builders.url().optional(),
      },
    };
  },
  collection: { ...named, includes: [] },
});

export const equipmentCategories = defineResource({
  type: 'equipment-categories',
  names: { one: 'EquipmentCategory', many: 'EquipmentCategories' },
  collectionPath: '/v3/orgs/{org_id}/assets/equipment-categories',
  itemPath: '/v3/orgs/{org_id}/assets/equipment-categories/{equipment_category_id}',
  permission: 'assets',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    return { attributes: { name: name(builders), description: description(builders) } };
  },
  collection: { ...named, includes: [] },
});

export const equipmentModels = defineResource({
  type: 'equipment-models',
  names: { one: 'EquipmentModel', many: 'EquipmentModels' },
  collectionPath: '/v3/orgs/{org_id}/assets/equipment-models',
  itemPath: '/v3/orgs/{org_id}/assets/equipment-models/{equipment_model_id}',
  permission: 'assets',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    return {
      attributes: { name: name(builders), description: description(builders) },
      relationships: ['manufacturer', 'categories'],
    };
  },
  relationships: {
    manufacturer: { type: 'equipment-manufacturers' },
    categories: { type: 'equipment-categories', many: true },
  },
  collection: { ...named, includes: ['manufacturer', 'categories'] },
});

export const vehicleSpecifications = defineResource({
  type: 'vehicle-specifications',
  tag: 'Vehicles',
  names: { one: 'VehicleSpecification', many: 'VehicleSpecifications' },
  collectionPath: '/v3/orgs/{org_id}/assets/vehicle-specifications',
  itemPath: '/v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id}',
  permission: 'assets',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return {
      attributes: {
        name: name(builders),
        description: description(builders),
        fuel_type: z.enum(['diesel', 'petrol', 'electric', 'hybrid', 'hydrogen']).optional(),
        seats: z.number().int().min(1).max(100).optional(),
      },
      relationships: ['model'],
    };
  },
  relationships: { model: { type: 'equipment-models' } },
  collection: { ...named, includes: ['model', 'model.manufacturer', 'model.categories'] },
});

/**
 * The attribute of a vehicle record naming one equipment item it carries: set and removed in the item's
 * own transaction (`keep` ops, which need no read of the vehicle), never served as such.
 */
export const carriedAttribute = (equipmentId: string) => `carries#${equipmentId}`;

/** A vehicle's `equipment`: the items it carries, from its own record. */
const withEquipment = async (_scope: unknown, items: StoredResource[]): Promise<StoredResource[]> =>
  items.map((vehicle) => ({
    ...vehicle,
    rels: {
      ...vehicle.rels,
      equipment: Object.keys(vehicle)
        .filter((name) => name.startsWith(carriedAttribute('')))
        .map((name) => name.slice(carriedAttribute('').length))
        .sort(),
    },
  }));

export const vehicles = defineResource({
  type: 'vehicles',
  events: ['allocated'],
  tag: 'Vehicles',
  names: { one: 'Vehicle', many: 'Vehicles' },
  collectionPath: '/v3/orgs/{org_id}/assets/vehicles',
  itemPath: '/v3/vehicles/{vehicle_id}',
  permission: 'assets',
  endpoints: {
    list: true,
    get: true,
    create: true,
    update: true,
    delete: 'functions/assets/vehicles/delete.ts',
  },
  writes: async () => {
    const { z, line, requiredLine } = await loadSchemaBuilders();
    return {
      attributes: {
        registration: requiredLine(20),
        name: line(200).optional(),
        make: line(100).optional(),
        model_name: line(100).optional(),
        colour: line(50).optional(),
        year: z.number().int().min(1900).max(2100).optional(),
        status: z.enum(['active', 'off_road', 'in_service', 'disposed']).optional(),
      },
      relationships: ['specification', 'user'],
    };
  },
  relationships: {
    specification: { type: 'vehicle-specifications' },
    user: { type: 'users' },
    equipment: { type: 'equipment-items', many: true },
    ...allocationRelationships,
  },
  derive: withEquipment,
  keys: {
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#vehicles',
      sk: 'status#{attributes.status}#{id}',
      about:
        'a vehicle under its status, in creation order: `filter[status]`; vehicles written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Every filter is indexed (a fleet grows with the workforce): none reads the whole partition.
    filters: {
      registration: { kind: 'eq', path: 'attributes.registration', index: 'sort-registration' },
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { registration: { path: 'attributes.registration', index: 'lsi1' } },
    defaultSort: 'registration',
    includes: ['specification', 'specification.model', 'user', 'equipment'],
  },
});

export const equipmentItems = defineResource({
  type: 'equipment-items',
  names: { one: 'Equipment', many: 'Equipment' },
  collectionPath: '/v3/orgs/{org_id}/assets/equipment',
  itemPath: '/v3/orgs/{org_id}/assets/equipment/{equipment_id}',
  permission: 'assets',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/assets/equipment/create.ts',
    update: 'functions/assets/equipment/update.ts',
    delete: 'functions/assets/equipment/delete.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      reference: z.string().optional(),
      serial: z.string(),
      asset_number: z.string().optional(),
      is_rented: z.boolean().optional(),
      purchased_at: instant().optional(),
      vibration_source: z.boolean().optional(),
      vibration_magnitude: z.number().optional(),
      description: z.string().optional(),
      status: z.enum(EQUIPMENT_STATUSES),
    };
  },
  relationships: {
    manufacturer: { type: 'equipment-manufacturers' },
    model: { type: 'equipment-models' },
    business_area: { type: 'business-areas' },
    owner: { type: 'owners' },
    // The spec's `status` relationship: renamed because JSON:API fields share one namespace and
    // `status` is already an attribute.
    equipment_status: { type: 'equipment-statuses' },
    categories: { type: 'equipment-categories', many: true },
    inherited_categories: { type: 'equipment-categories', many: true },
    certifications: { type: 'equipment-certifications', many: true },
    pre_allocations: { type: 'equipment-item-pre-allocations', many: true },
    folder: { type: 'folders' },
    vehicle: { type: 'vehicles' },
    ...allocationRelationships,
    allocated_vehicle: { type: 'vehicles' },
  },
  keys: {
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#equipment-items',
      sk: 'status#{attributes.status}#{id}',
      about:
        'an item under its status, in creation order: `filter[status]`; items written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Indexed filters read what they return at any size; the others narrow an indexed one (docs/api.md).
    filters: {
      serial: { kind: 'eq', path: 'attributes.serial', index: 'sort-serial' },
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      reference: { kind: 'eq', path: 'attributes.reference' },
      asset_number: { kind: 'eq', path: 'attributes.asset_number' },
      is_rented: { kind: 'eq', path: 'attributes.is_rented', type: 'boolean' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: {
      serial: { path: 'attributes.serial', index: 'lsi1' },
      created_at: { path: 'meta.created_at' },
      modified_at: { path: 'meta.updated_at', index: 'lsi2' },
    },
    defaultSort: 'created_at',
    includes: [
      'model.manufacturer',
      'model.categories',
      'vehicle.equipment',
      'vehicle.user',
      'vehicle.specification.model.manufacturer',
      'vehicle.specification.model.categories',
    ],
  },
});

export const vehicleInventoryChecks = defineResource({
  type: 'vehicle-inventory-checks',
  tag: 'Vehicles',
  names: { one: 'VehicleInventoryCheck', many: 'VehicleInventoryChecks' },
  collectionPath: '/v3/orgs/{org_id}/assets/vehicle-inventory-checks',
  itemPath: '/v3/vehicle-inventory-checks/{vehicle_inventory_check_id}',
  permission: 'assets',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/assets/inventory-checks/create.ts',
    update: 'functions/assets/inventory-checks/update.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      inspected_at: instant(),
      items: z.array(
        z.strictObject({
          equipment_id: z.uuid(),
          present: z.boolean().nullable().optional(),
          working: z.boolean().nullable().optional(),
          certified: z.boolean().nullable().optional(),
        }),
      ),
    };
  },
  relationships: {
    vehicle: { type: 'vehicles' },
    author: { type: 'users' },
    equipment: { type: 'equipment-items', many: true },
  },
  keys: {
    'filter-vehicle': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#vehicle-inventory-checks',
      sk: 'vehicle#{rels.vehicle}#{id}',
      about:
        'a check under its vehicle, in creation order, in its own partition (no sort uses `lsi2`): `filter[vehicle]`; checks written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // A vehicle per 25 workers, checked weekly: every filter is indexed (`inspected_at` on its sort's index).
    filters: {
      vehicle: { kind: 'eq', path: 'rels.vehicle', index: 'filter-vehicle' },
      inspected_at: { kind: 'time', path: 'attributes.inspected_at', index: 'sort-inspected_at' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { inspected_at: { path: 'attributes.inspected_at', index: 'lsi1' } },
    defaultSort: '-inspected_at',
    includes: ['vehicle', 'equipment', 'author'],
  },
});
