/**
 * Demo assets and places for one organisation, created through the same write functions the API uses:
 * a manufacturer → model → vehicle specification graph, vans carrying equipment (one with a comment), a
 * depot, streets and properties around the organisation's town.
 */

import {
  equipmentCategories,
  equipmentManufacturers,
  equipmentModels,
  vehicleSpecifications,
} from '#functions/assets/definitions';
import { equipmentCrud } from '#functions/assets/equipment/writes';
import { vehicleCrud } from '#functions/assets/vehicles/writes';
import { createComment } from '#functions/comments/comments';
import { locations, properties, streets } from '#functions/places/definitions';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { declaredCrud, type SimpleCrud } from '#shared/engine/simple-crud';

const rel = (type: string, id: string) => ({ data: { type, id } });

const manufacturerCrud = await declaredCrud(equipmentManufacturers);
const categoryCrud = await declaredCrud(equipmentCategories);
const modelCrud = await declaredCrud(equipmentModels);
const vehicleSpecificationCrud = await declaredCrud(vehicleSpecifications);
const locationCrud = await declaredCrud(locations);
const propertyCrud = await declaredCrud(properties);

export const loadDemoAssets = async (
  orgId: string,
  centre: { latitude: number; longitude: number },
  prefix: string,
) => {
  const scope = scopeOf([orgId]);
  const make = async (crud: SimpleCrud, type: string, attributes: object, relationships?: object) =>
    (await crud.create(scope, orgId, { data: { type, attributes, ...(relationships && { relationships }) } }))
      .id;

  const hilti = await make(manufacturerCrud, 'equipment-manufacturers', {
    name: 'Hilti',
    website: 'https://www.hilti.co.uk',
  });
  const ford = await make(manufacturerCrud, 'equipment-manufacturers', { name: 'Ford' });
  const drills = await make(categoryCrud, 'equipment-categories', { name: 'Drills' });
  const hav = await make(categoryCrud, 'equipment-categories', { name: 'Hand-arm vibration tools' });
  const hammer = await make(
    modelCrud,
    'equipment-models',
    { name: 'TE 30-A36 rotary hammer' },
    {
      manufacturer: rel('equipment-manufacturers', hilti),
      categories: {
        data: [
          { type: 'equipment-categories', id: drills },
          { type: 'equipment-categories', id: hav },
        ],
      },
    },
  );
  const transit = await make(
    modelCrud,
    'equipment-models',
    { name: 'Transit 350 L3' },
    { manufacturer: rel('equipment-manufacturers', ford) },
  );
  const crewVan = await make(
    vehicleSpecificationCrud,
    'vehicle-specifications',
    { name: 'Crew van', fuel_type: 'diesel', seats: 6 },
    {
      model: rel('equipment-models', transit),
    },
  );
  const vans = [];
  for (const registration of [`${prefix}24 KDE`, `${prefix}73 RWS`]) {
    vans.push(
      await make(
        vehicleCrud,
        'vehicles',
        { registration, make: 'Ford', model_name: 'Transit' },
        { specification: rel('vehicle-specifications', crewVan) },
      ),
    );
  }
  for (const [i, van] of vans.entries()) {
    for (let k = 1; k <= 3; k++) {
      await make(
        equipmentCrud,
        'equipment-items',
        {
          serial: `${prefix}-HIL-${i}${k}`,
          asset_number: `A-${i}${k}`,
          vibration_source: true,
          vibration_magnitude: 7.5,
        },
        {
          model: rel('equipment-models', hammer),
          vehicle: rel('vehicles', van),
        },
      );
    }
  }
  // A comment, so a record's comments read something (the start-up bench times one by its id).
  await createComment(
    { scope, orgId, principal: null },
    {
      data: {
        type: 'comments',
        attributes: {
          body: 'Rear door seal worn: booked in at the depot on Friday.',
          subject: { type: 'vehicles', id: vans[0] ?? '' },
        },
      },
    },
  );
  await make(locationCrud, 'locations', {
    name: 'Main depot',
    reference: `${prefix}-DEP-1`,
    location: centre,
  });
  const streetIds = [];
  for (const [i, name] of ['High Street', 'Station Road', 'Mill Lane'].entries()) {
    const street = newRecord(streets, orgId, {
      attributes: { name, usrn: `${prefix === 'NW' ? 1 : 2}00000${i}`, town: prefix },
    });
    await commit(scope, [{ create: street }]);
    streetIds.push(street.id);
  }
  for (let i = 0; i < 24; i++) {
    await make(
      propertyCrud,
      'properties',
      {
        name: `${10 + i} ${['High Street', 'Station Road', 'Mill Lane'][i % 3]}`,
        reference: `${prefix}-P-${i}`,
        location: {
          latitude: centre.latitude + (i % 6) * 0.002,
          longitude: centre.longitude + Math.floor(i / 6) * 0.003,
        },
      },
      { street: rel('streets', streetIds[i % 3] ?? '') },
    );
  }
};
