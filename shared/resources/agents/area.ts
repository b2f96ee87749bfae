import { defineArea } from '../area';
import { agents, briefings } from './definitions';

export const area = defineArea('agents', {
  resources: [agents, briefings],
  routes: [],
});
