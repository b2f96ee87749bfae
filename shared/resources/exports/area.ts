import { defineArea } from '../area';
import { exportsDefinition } from './definitions';

export const area = defineArea('exports', {
  tag: 'Exports',
  resources: [exportsDefinition],
  routes: [],
});
