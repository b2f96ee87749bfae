import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { importTemplates, locationImports, locations, properties, streets } from './definitions';
import { IMPORT_JOB } from './job-kinds';

export const area = defineArea('places', {
  tag: 'Locations',
  feature: { description: 'Locations, properties, streets and their imports.' },
  permissions: {
    'places:view': 'See locations, properties and streets.',
    'places:manage': 'Create, change, delete and import locations.',
  },
  jobs: [IMPORT_JOB],
  migrations: [
    migration(34, 'import-template-filter-index', {
      module: 'functions/places/migrations/import-template-filter-index.ts',
      step: 'importTemplateFilterIndex',
    }),
    migration(40, 'location-import-filter-index', {
      module: 'functions/places/migrations/location-import-filter-index.ts',
      step: 'locationImportFilterIndex',
    }),
  ],
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
