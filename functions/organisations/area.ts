import { defineArea } from '#shared/engine/area';
import { organisations } from './definitions';
import { settings } from './settings';

export const area = defineArea('organisations', {
  tag: 'Organisations',
  examples: 'functions/organisations/examples.ts',
  resources: [organisations, settings],
  routes: [],
});
