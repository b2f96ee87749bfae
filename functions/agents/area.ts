import { defineArea } from '#shared/engine/area';
import { agents, briefings } from './definitions';

export const area = defineArea('agents', {
  tag: 'Agents',
  examples: 'functions/agents/examples.ts',
  resources: [agents, briefings],
  routes: [],
});
