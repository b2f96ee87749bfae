import { defineArea } from '#shared/engine/area';
import { permits, protections, streetWorks } from './definitions';

export const area = defineArea('street-works', {
  tag: 'Street Works',
  feature: { description: 'Permits and street works.' },
  permissions: {
    'street-works:view':
      'See permits, street works activities and the protections the national service sent for them.',
  },
  resources: [permits, streetWorks, protections],
  routes: [],
});
