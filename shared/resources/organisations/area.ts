import { defineArea } from '../area';
import { organisations } from './definitions';

export const area = defineArea('organisations', {
  tag: 'Organisations',
  resources: [organisations],
  routes: [],
});
