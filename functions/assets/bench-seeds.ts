/**
 * The routes bench's assets (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): manufacturer → model → specification → vehicle → equipment → inventory check; later (once
 * places and projects exist), a vehicle's history: 26 edits and 4 allocations, each an audit entry once the
 * stream hands it over.
 */
import {
  at,
  type BenchSeeds,
  idsOf,
  many,
  one,
  pick,
  type Step,
  slug,
  town,
} from '../../test/bench/seed-steps';

// biome-ignore format: a table: manufacturer, model, category
const MODELS = [
  ['Hilti', 'TE 30-A36 rotary hammer', 'Drills'], ['Makita', 'DHR243 SDS+ drill', 'Drills'],
  ['Stihl', 'TS 420 cut-off saw', 'Cut-off saws'], ['Belle', 'PCX 450 plate compactor', 'Compaction'],
  ['Wacker Neuson', 'BS 60-2i rammer', 'Compaction'], ['Honda', 'WB30 water pump', 'Pumps'],
  ['Atlas Copco', 'XAS 58 compressor', 'Compressors'], ['DeWalt', 'DCD796 combi drill', 'Drills'],
  ['Radiodetection', 'RD8200 cable locator', 'Detection'], ['Crowcon', 'Gas-Pro 4-gas monitor', 'Gas detection'],
  ['Draeger', 'X-am 2500 gas monitor', 'Gas detection'], ['Leica', 'DD230 utility locator', 'Detection'],
  ['Husqvarna', 'K 770 power cutter', 'Cut-off saws'], ['JCB', '3CX backhoe loader', 'Excavators'],
  ['Kubota', 'KX057-5 excavator', 'Excavators'], ['Takeuchi', 'TB290 excavator', 'Excavators'],
  ['Thwaites', '6 t swivel dumper', 'Dumpers'], ['Altrad', 'RTX 3000 roller', 'Compaction'],
  ['Bosch', 'GBH 18V-26 SDS drill', 'Drills'], ['Milwaukee', 'M18 impact wrench', 'Power tools'],
  ['Trimble', 'R12i GNSS receiver', 'Surveying'], ['Topcon', 'GT-1200 total station', 'Surveying'],
  ['Genie', 'GS-1932 scissor lift', 'Access platforms'],
  // Vehicles: their specifications are written against these models.
  ['Ford', 'Transit Custom', 'Vans'], ['Vauxhall', 'Vivaro', 'Vans'], ['Toyota', 'Hilux', 'Pick-ups'],
  ['Isuzu', 'D-Max', 'Pick-ups'], ['Mercedes-Benz', 'Sprinter', 'Crew buses'], ['Volkswagen', 'Crafter', 'Vans'],
  ['Land Rover', 'Defender 110', 'Pick-ups'],
] as const;
const VEHICLE_MODELS = 23;
// biome-ignore format: a word list
const CATEGORIES = ['Drills', 'Cut-off saws', 'Compaction', 'Pumps', 'Compressors', 'Detection', 'Gas detection', 'Excavators', 'Dumpers', 'Power tools', 'Surveying', 'Access platforms', 'Vans', 'Pick-ups', 'Crew buses', 'Generators', 'Lighting towers', 'Trench shoring', 'Road barriers', 'Traffic signals', 'Breakers', 'Pipe cutters', 'Fusion welders', 'Chlorination kits', 'Confined space kits', 'Fall arrest', 'Pressure testers', 'Welfare units', 'Site cabins', 'Hand tools'] as const;

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 70,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        const letters = (i: number) =>
          [7, 11, 5].map((k, n) => String.fromCharCode(65 + ((i * k + n * 9) % 26))).join('');
        const vehicleModel = (i: number) => VEHICLE_MODELS + (i % 7);
        return [
          {
            route: 'createEquipmentManufacturer',
            data: (i) => ({
              attributes: {
                name: pick(MODELS, i)[0],
                website: `https://www.${slug(pick(MODELS, i)[0])}.example`,
              },
            }),
          },
          { route: 'createEquipmentCategory', data: (i) => ({ attributes: { name: pick(CATEGORIES, i) } }) },
          {
            route: 'createEquipmentModel',
            data: (i) => ({
              attributes: { name: pick(MODELS, i)[1] },
              relationships: {
                manufacturer: one('equipment-manufacturers', ids('equipment-manufacturers', i)),
                categories: many('equipment-categories', [
                  ids('equipment-categories', CATEGORIES.indexOf(pick(MODELS, i)[2])),
                  ids('equipment-categories', i + 15),
                ]),
              },
            }),
          },
          {
            route: 'createVehicleSpecification',
            data: (i) => ({
              attributes: {
                name: `${pick(MODELS, vehicleModel(i))[1]} ${pick(['crew van', 'welfare van', 'tipper', 'dropside', 'jetting unit'], i)}`,
                fuel_type: pick(['diesel', 'electric', 'hybrid', 'diesel', 'petrol'], i),
                seats: pick([2, 3, 6, 7, 9], i),
              },
              relationships: { model: one('equipment-models', ids('equipment-models', vehicleModel(i))) },
            }),
          },
          {
            route: 'createVehicle',
            data: (i) => ({
              attributes: {
                registration: `${pick(['PN', 'PO', 'SM', 'NX', 'YJ', 'KX'], i)}${18 + (i % 7)} ${letters(i)}`,
                name: `${town(i)} ${pick(['gang van', 'pick-up', 'welfare van', 'tipper'], i)}`,
                make: pick(MODELS, vehicleModel(i))[0],
                model_name: pick(MODELS, vehicleModel(i))[1],
                colour: pick(['white', 'silver', 'blue', 'white', 'yellow'], i),
                year: 2018 + (i % 7),
                status: pick(['active', 'active', 'in_service', 'off_road', 'active', 'disposed'], i),
              },
              relationships: {
                specification: one('vehicle-specifications', ids('vehicle-specifications', i)),
                user: one('users', user(i)),
              },
            }),
          },
          {
            route: 'createEquipment',
            data: (i) => ({
              attributes: {
                serial: `${pick(MODELS, i)[0].slice(0, 3).toUpperCase()}-${2024_0000 + i * 131}`,
                asset_number: `NW-A-${1000 + i * 7}`,
                description: `${pick(MODELS, i)[1]}, kept on the ${town(i)} van`,
                purchased_at: at(i, 11, '2022-03-01T09:00:00Z'),
                is_rented: i % 6 === 5,
                status: pick(['active', 'active', 'in_repair', 'active', 'retired'], i),
                vibration_source: i % 3 === 0,
                ...(i % 3 === 0 && { vibration_magnitude: 4 + (i % 7) }),
              },
              relationships: {
                model: one('equipment-models', ids('equipment-models', i % VEHICLE_MODELS)),
                vehicle: one('vehicles', ids('vehicles', i)),
              },
            }),
          },
          {
            route: 'createVehicleInventoryCheck',
            data: (i) => ({
              attributes: {
                inspected_at: at(i, 6, '2025-07-07T06:45:00Z'),
                items: [
                  {
                    equipment_id: ids('equipment-items', i),
                    present: i % 9 !== 4,
                    working: i % 5 !== 2,
                    certified: i % 4 !== 3,
                  },
                ],
              },
              relationships: { vehicle: one('vehicles', ids('vehicles', i)) },
            }),
          },
        ];
      },
    },
    {
      at: 130,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'updateVehicle',
            count: 26,
            serial: true,
            into: 'vehicle-edits',
            params: () => ({ vehicle_id: ids('vehicles') }),
            data: (i) => ({
              id: ids('vehicles'),
              attributes: {
                colour: pick(['white', 'silver', 'blue', 'red', 'yellow'], i),
                status: pick(['active', 'in_service', 'active', 'off_road'], i),
                name: `Kendal gang van (${pick(['service due', 'MOT booked', 'tyres replaced', 'tracker fitted', 'racking fitted'], i)} ${at(i, 4).slice(0, 10)})`,
              },
            }),
          },
          ...(
            [
              ['allocateVehicleToLocation', 'locations', 'locations'],
              ['allocateVehicleToScheme', 'schemes', 'schemes'],
              ['allocateVehicleToWorkOrder', 'work-orders', 'work-orders'],
              ['allocateVehicleToPerson', 'users', 'users'],
            ] as const
          ).map(
            ([route, type, name], n): Step => ({
              route,
              count: 1,
              into: 'allocations',
              params: () => ({ vehicle_id: ids('vehicles') }),
              body: () => ({
                data: { type, id: ids(name, n + 1) },
                meta: { starts_at: at(n, 14, '2025-10-01T07:00:00Z') },
              }),
            }),
          ),
        ];
      },
    },
  ],
};
