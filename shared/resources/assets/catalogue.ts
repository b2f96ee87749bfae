/** The supporting records equipment and vehicles name: manufacturers, categories, models, vehicle specifications. */
import * as z from 'zod';
import { freeText, requiredLine, url } from '../../jsonapi/attribute-types';
import { simpleCrud } from '../simple-crud';
import {
  equipmentCategories,
  equipmentManufacturers,
  equipmentModels,
  vehicleSpecifications,
} from './definitions';

const name = z.lazy(() => requiredLine(200));
const description = z.lazy(() => freeText(2000).optional());

export const manufacturerCrud = simpleCrud(
  equipmentManufacturers,
  { name, description, website: url().optional() },
  [],
);
export const categoryCrud = simpleCrud(equipmentCategories, { name, description }, []);
export const modelCrud = simpleCrud(equipmentModels, { name, description }, ['manufacturer', 'categories']);
export const vehicleSpecificationCrud = simpleCrud(
  vehicleSpecifications,
  {
    name,
    description,
    fuel_type: z.enum(['diesel', 'petrol', 'electric', 'hybrid', 'hydrogen']).optional(),
    seats: z.number().int().min(1).max(100).optional(),
  },
  ['model'],
);
