import { defineArea } from '#shared/engine/area';
import { importTemplates, locationImports, locations, properties, streets } from './definitions';

export const area = defineArea('places', {
  tag: 'Locations',
  examples: 'functions/places/examples.ts',
  resources: [locations, properties, streets, importTemplates, locationImports],
  routes: [
    {
      id: 'processLocationImport',
      method: 'POST',
      path: '/v3/orgs/{org_id}/governance/location-imports/{location_import_id}/process',
      handler: 'functions/places/location-imports/process.ts',
      answers: { status: 200, resource: 'location-imports', job: true },
      tag: 'Location Imports',
      permission: 'places:manage',
      access: { table: 'write', buckets: { exports: 'read' } },
    },
  ],
});
