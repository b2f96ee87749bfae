/** Locations: a name, the organisation's own `reference`, an address and a point. */
import * as z from 'zod';
import { LOCATION_FIELDS } from '../../domain/places/location-rows';
import { simpleCrud } from '../simple-crud';
import { importTemplates, locations, properties } from './definitions';
import { referenceClaim } from './location-imports';

export const point = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

export const locationCrud = simpleCrud(
  locations,
  {
    name: z.string().trim().min(1).max(200),
    reference: z.string().trim().min(1).max(100).optional(),
    address: z.string().max(500).optional(),
    location: point.optional(),
  },
  [],
  // The organisation's own reference is the key imports match on: unique within the organisation.
  { attribute: 'reference', claim: referenceClaim },
);

export const propertyCrud = simpleCrud(
  properties,
  {
    name: z.string().trim().min(1).max(200),
    reference: z.string().trim().min(1).max(100).optional(),
    uprn: z
      .string()
      .regex(/^\d{1,12}$/)
      .optional(),
    address: z.string().max(500).optional(),
    postcode: z.string().max(10).optional(),
    location: point.optional(),
  },
  ['street'],
);

export const importTemplateCrud = simpleCrud(
  importTemplates,
  {
    name: z.string().trim().min(1).max(200),
    target: z.literal('locations'),
    columns: z.strictObject(
      Object.fromEntries(
        LOCATION_FIELDS.map((field) => [field, z.string().trim().min(1).max(100).optional()]),
      ),
    ),
  },
  [],
);
