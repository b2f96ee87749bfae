import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { agents, briefings } from './definitions';

export const area = defineArea('agents', {
  tag: 'Agents',
  feature: { description: 'AI agent personas and their briefings.' },
  permissions: {
    'agents:view': 'See the organisation’s agents and their briefings.',
    'agents:manage': 'Create, change and delete agents, and store and update their briefings.',
  },
  migrations: [
    migration(26, 'briefing-filter-index', {
      module: 'functions/agents/migrations/briefing-filter-index.ts',
      step: 'briefingFilterIndex',
    }),
    migration(37, 'agent-filter-index', {
      module: 'functions/agents/migrations/agent-filter-index.ts',
      step: 'agentFilterIndex',
    }),
  ],
  resources: [agents, briefings],
  routes: [],
});
