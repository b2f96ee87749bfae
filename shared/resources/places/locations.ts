/** Locations: a name, the organisation's own `reference`, an address and a point. */
import { z } from 'zod';
import { simpleCrud } from '../simple-crud';
import { locations } from './definitions';

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
);
