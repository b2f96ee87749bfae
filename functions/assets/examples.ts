/** A body for each of the assets area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createEquipmentManufacturer: () => ({
    data: {
      type: 'equipment-manufacturers',
      attributes: { name: 'Hilti', website: 'https://hilti.example' },
    },
  }),
  updateEquipmentManufacturer: (i) => ({
    data: {
      type: 'equipment-manufacturers',
      id: i.equipment_manufacturer_id,
      attributes: { name: 'Hilti AG' },
    },
  }),
  createEquipmentCategory: () => ({ data: { type: 'equipment-categories', attributes: { name: 'Drills' } } }),
  updateEquipmentCategory: (i) => ({
    data: {
      type: 'equipment-categories',
      id: i.equipment_category_id,
      attributes: { name: 'Rotary drills' },
    },
  }),
  createEquipmentModel: (i) => ({
    data: {
      type: 'equipment-models',
      attributes: { name: 'TE 30' },
      relationships: {
        manufacturer: one('equipment-manufacturers', i.equipment_manufacturer_id),
        categories: many('equipment-categories', [i.equipment_category_id]),
      },
    },
  }),
  updateEquipmentModel: (i) => ({
    data: {
      type: 'equipment-models',
      id: i.equipment_model_id,
      relationships: { manufacturer: one('equipment-manufacturers', i.equipment_manufacturer_id) },
    },
  }),
  createVehicleSpecification: (i) => ({
    data: {
      type: 'vehicle-specifications',
      attributes: { name: 'Crew van', fuel_type: 'diesel', seats: 6 },
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  updateVehicleSpecification: (i) => ({
    data: {
      type: 'vehicle-specifications',
      id: i.vehicle_specification_id,
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  createVehicle: (i) => ({
    data: {
      type: 'vehicles',
      attributes: { registration: `${i.reference} KDE` },
      relationships: {
        specification: one('vehicle-specifications', i.vehicle_specification_id),
        user: one('users', i.person),
      },
    },
  }),
  updateVehicle: (i) => ({
    data: {
      type: 'vehicles',
      id: i.vehicle_id,
      attributes: { colour: 'white' },
      relationships: { user: one('users', i.person) },
    },
  }),
  createEquipment: (i) => ({
    data: {
      type: 'equipment-items',
      attributes: { serial: `${i.reference}-0001`, description: 'Rotary hammer' },
      relationships: {
        model: one('equipment-models', i.equipment_model_id),
        vehicle: one('vehicles', i.vehicle_id),
      },
    },
  }),
  updateEquipment: (i) => ({
    data: {
      type: 'equipment-items',
      id: i.equipment_id,
      attributes: { description: 'Rotary hammer drill' },
      relationships: { model: one('equipment-models', i.equipment_model_id) },
    },
  }),
  createVehicleInventoryCheck: (i) => ({
    data: {
      type: 'vehicle-inventory-checks',
      attributes: {
        inspected_at: '2026-11-20T07:30:00Z',
        items: [{ equipment_id: i.equipment_id, present: true, working: true }],
      },
      relationships: { vehicle: one('vehicles', i.vehicle_id) },
    },
  }),
  updateVehicleInventoryCheck: (i) => ({
    data: {
      type: 'vehicle-inventory-checks',
      id: i.vehicle_inventory_check_id,
      attributes: { items: [{ equipment_id: i.equipment_id, present: true, working: false }] },
    },
  }),
  allocateVehicleToLocation: (i) => ({
    data: { type: 'locations', id: i.location_id },
    meta: { starts_at: '2026-12-01T07:00:00Z' },
  }),
  allocateVehicleToScheme: (i) => one('schemes', i.scheme_id),
  allocateVehicleToWorkOrder: (i) => one('work-orders', i.work_order_id),
  allocateVehicleToPerson: (i) => one('users', i.person),
};
