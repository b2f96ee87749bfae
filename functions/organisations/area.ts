import { defineArea } from '#shared/engine/area';
import { organisations } from './definitions';
import { settings } from './settings';

export const area = defineArea('organisations', {
  tag: 'Organisations',
  resources: [organisations, settings],
  routes: [],
});
