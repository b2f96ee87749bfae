import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { permits, protections, streetWorks } from './definitions';

export const area = defineArea('street-works', {
  tag: 'Street Works',
  feature: { description: 'Permits and street works.' },
  permissions: {
    'street-works:view':
      'See permits, street works activities and the protections the national service sent for them.',
  },
  resources: [permits, streetWorks, protections],
  migrations: [
    // 24 once migrations 22 and 23 land: the runner refuses a gap.
    migration(24, 'street-works-filter-index', {
      module: 'functions/street-works/migrations/street-works-filter-index.ts',
      step: 'streetWorksFilterIndex',
    }),
  ],
  routes: [],
});
