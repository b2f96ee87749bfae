import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { operations, schemeContracts, schemes, workOrders } from './definitions';

export const area = defineArea('projects', {
  tag: 'Schemes',
  feature: {
    description: 'The work hierarchy: projects, schemes, scheme contracts, work orders and operations.',
  },
  permissions: {
    'projects:view': 'See scheme contracts, schemes, work orders and operations.',
    'projects:manage':
      'Create, change, delete and restore scheme contracts, schemes, work orders and operations.',
  },
  migrations: [
    // 17 and 18 once 14 to 16 land (i42t-projects: the runner refuses a gap).
    migration(17, 'scheme-status-index', {
      module: 'functions/projects/migrations/node-status-index.ts',
      step: 'schemeStatusIndex',
    }),
    migration(18, 'work-status-index', {
      module: 'functions/projects/migrations/node-status-index.ts',
      step: 'workStatusIndex',
    }),
    // The next free number on i42v-progress: the lead renumbers at merge.
    migration(29, 'scheme-progress-items', {
      module: 'functions/projects/migrations/scheme-progress.ts',
      step: 'schemeProgressItems',
    }),
  ],
  resources: [schemeContracts, schemes, workOrders, operations],
  routes: [
    {
      id: 'replaceScheme',
      method: 'PUT',
      path: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}',
      handler: 'functions/projects/schemes/replace.ts',
      answers: { status: 200, resource: 'schemes' },
      deprecated: true,
      permission: 'projects:manage',
    },
    {
      id: 'searchProjects',
      method: 'GET',
      path: '/v3/orgs/{org_id}/projects/search',
      handler: 'functions/projects/search.ts',
      answers: { status: 200, collection: ['schemes', 'work-orders', 'operations'] },
      tag: 'Search',
      permission: 'projects:view',
    },
  ],
});
