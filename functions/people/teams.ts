import * as z from 'zod';
import { defineResource } from '#shared/engine/resource-definition';

export const teams = defineResource({
  type: 'teams',
  names: { one: 'Team', many: 'Teams' },
  collectionPath: '/v3/orgs/{org_id}/people/teams',
  itemPath: '/v3/orgs/{org_id}/people/teams/{team_id}',
  permission: 'teams',
  endpoints: { list: 'functions/people/list-teams.ts', get: true, create: 'functions/people/create-team.ts' },
  served: () => ({ name: z.string(), description: z.string() }),
  relationships: {
    members: { type: 'users', many: true },
    organisation: { type: 'organisations' },
    schemas: { type: 'form-schemas', many: true },
  },
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name' },
      created_at: { kind: 'time', path: 'meta.created_at' },
      updated_at: { kind: 'time', path: 'meta.updated_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['members'],
  },
});
