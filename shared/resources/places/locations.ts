/** Locations: a name, the organisation's own `reference`, an address and a point. */
import * as z from 'zod';
import { LOCATION_FIELDS } from '../../domain/places/location-rows';
import { freeText, line, requiredLine } from '../../jsonapi/attribute-types';
import { simpleCrud } from '../simple-crud';
import { importTemplates, locations, properties } from './definitions';
import { referenceClaim } from './location-imports';

export const point = z.lazy(() =>
  z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  }),
);

export const locationCrud = simpleCrud(
  locations,
  {
    name: requiredLine(200),
    reference: requiredLine(100).optional(),
    address: freeText(500).optional(),
    location: point.optional(),
  },
  [],
  // The organisation's own reference is the key imports match on: unique within the organisation.
  { attribute: 'reference', claim: referenceClaim },
);

export const propertyCrud = simpleCrud(
  properties,
  {
    name: requiredLine(200),
    reference: requiredLine(100).optional(),
    uprn: z
      .string()
      .regex(/^\d{1,12}$/)
      .optional(),
    address: freeText(500).optional(),
    postcode: line(10).optional(),
    location: point.optional(),
  },
  ['street'],
);

export const importTemplateCrud = simpleCrud(
  importTemplates,
  {
    name: requiredLine(200),
    target: z.literal('locations'),
    columns: z.strictObject(
      Object.fromEntries(LOCATION_FIELDS.map((field) => [field, requiredLine(100).optional()])),
    ),
  },
  [],
);
