import { defineArea } from '../area';
import { exportsDefinition } from './definitions';

export const area = defineArea('exports', {
  resources: [exportsDefinition],
  routes: [],
});
