/** A body for each of the places area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createLocation: (i) => ({
    data: {
      type: 'locations',
      attributes: {
        name: 'Depot',
        reference: `${i.reference}-DEP`,
        location: { latitude: 54.32, longitude: -2.74 },
      },
    },
  }),
  updateLocation: (i) => ({
    data: { type: 'locations', id: i.location_id, attributes: { name: 'Main depot' } },
  }),
  createProperty: (i) => ({
    data: {
      type: 'properties',
      attributes: { name: '12 High Street', location: { latitude: 54.33, longitude: -2.75 } },
      relationships: { street: one('streets', i.street_id) },
    },
  }),
  updateProperty: (i) => ({
    data: {
      type: 'properties',
      id: i.property_id,
      attributes: { name: '12 High St' },
      relationships: { street: one('streets', i.street_id) },
    },
  }),
  createImportTemplate: () => ({
    data: {
      type: 'import-templates',
      attributes: {
        name: 'Council sites',
        target: 'locations',
        columns: { reference: 'Site Code', name: 'Site Name' },
      },
    },
  }),
  createLocationImport: (i) => ({
    data: {
      type: 'location-imports',
      attributes: { csv: `Site Code,Site Name\n${i.reference}-S1,North depot\n`, file_name: 'sites.csv' },
      relationships: { import_template: one('import-templates', i.import_template_id) },
    },
  }),
  processLocationImport: null,
};
