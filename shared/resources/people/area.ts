import { defineArea } from '../area';
import { jobRoles } from './job-roles';
import { teams } from './teams';
import { users } from './users';

export const area = defineArea('people', {
  tag: 'Teams',
  resources: [teams, users, jobRoles],
  routes: [],
});
