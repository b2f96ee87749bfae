import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import {
  equipmentCategories,
  equipmentItems,
  equipmentManufacturers,
  equipmentModels,
  vehicleInventoryChecks,
  vehicleSpecifications,
  vehicles,
} from './definitions';

export const area = defineArea('assets', {
  tag: 'Equipment',
  feature: { description: 'Equipment, its models, manufacturers, categories and vehicles.' },
  permissions: {
    'assets:view':
      'See equipment, vehicles and the catalogue of manufacturers, models, categories and specifications.',
    'assets:manage': 'Create, change and delete equipment, vehicles and their catalogue records.',
  },
  migrations: [
    migration(3, 'equipment-status-index', {
      module: 'functions/assets/migrations/equipment-status-index.ts',
      step: 'equipmentStatusIndex',
    }),
    migration(6, 'equipment-status-counts', {
      module: 'functions/assets/migrations/equipment-status-counts.ts',
      step: 'equipmentStatusCounts',
    }),
    migration(7, 'vehicle-status-index', {
      module: 'functions/assets/migrations/vehicle-status-index.ts',
      step: 'vehicleStatusIndex',
    }),
    migration(23, 'inventory-check-vehicle-index', {
      module: 'functions/assets/migrations/inventory-check-vehicle-index.ts',
      step: 'inventoryCheckVehicleIndex',
    }),
  ],
  resources: [
    equipmentItems,
    equipmentManufacturers,
    equipmentModels,
    equipmentCategories,
    vehicleSpecifications,
    vehicles,
    vehicleInventoryChecks,
  ],
  routes: [
    {
      id: 'allocateVehicleToLocation',
      method: 'PATCH',
      path: '/v3/vehicles/{vehicle_id}/relationships/allocated_location',
      handler: 'functions/assets/vehicles/allocate-location.ts',
      answers: { status: 200, relationship: 'locations' },
      tag: 'Vehicles',
      permission: 'assets:manage',
    },
    {
      id: 'allocateVehicleToPerson',
      method: 'PATCH',
      path: '/v3/vehicles/{vehicle_id}/relationships/allocated_person',
      handler: 'functions/assets/vehicles/allocate-person.ts',
      answers: { status: 200, relationship: 'users' },
      tag: 'Vehicles',
      permission: 'assets:manage',
    },
    {
      id: 'allocateVehicleToScheme',
      method: 'PATCH',
      path: '/v3/vehicles/{vehicle_id}/relationships/allocated_scheme',
      handler: 'functions/assets/vehicles/allocate-scheme.ts',
      answers: { status: 200, relationship: 'schemes' },
      tag: 'Vehicles',
      permission: 'assets:manage',
    },
    {
      id: 'allocateVehicleToWorkOrder',
      method: 'PATCH',
      path: '/v3/vehicles/{vehicle_id}/relationships/allocated_work_order',
      handler: 'functions/assets/vehicles/allocate-work-order.ts',
      answers: { status: 200, relationship: 'work-orders' },
      tag: 'Vehicles',
      permission: 'assets:manage',
    },
  ],
});
