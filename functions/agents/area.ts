import { defineArea } from '#shared/engine/area';
import { agents, briefings } from './definitions';

export const area = defineArea('agents', {
  tag: 'Agents',
  resources: [agents, briefings],
  routes: [],
});
