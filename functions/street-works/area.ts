import { defineArea } from '#shared/engine/area';
import { permits, protections, streetWorks } from './definitions';

export const area = defineArea('street-works', {
  tag: 'Street Works',
  resources: [permits, streetWorks, protections],
  routes: [],
});
