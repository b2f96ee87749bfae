/** Agents (AI personas of an organisation) and the briefings they produce. */
import { createdAtSort, defineResource } from '../resource-definition';

export const agents = defineResource({
  type: 'agents',
  relationships: {
    organisation: { type: 'organisations' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  self: 'getAgent',
  collection: {
    filters: {
      enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

export const briefings = defineResource({
  type: 'briefings',
  relationships: { organisation: { type: 'organisations' }, agent: { type: 'agents' } },
  self: 'getBriefing',
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status' },
      generated_at: { kind: 'time', path: 'meta.generated_at' },
    },
    sorts: { ...createdAtSort },
    defaultSort: '-created_at',
    includes: ['agent'],
  },
});
