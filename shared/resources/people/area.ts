import { defineArea } from '../area';
import { teams } from '../teams';
import { users } from '../users';

export const area = defineArea('people', {
  resources: [teams, users],
  routes: [],
});
