import { defineArea } from '../area';
import { organisations } from '../organisations';

export const area = defineArea('organisations', {
  resources: [organisations],
  routes: [],
});
