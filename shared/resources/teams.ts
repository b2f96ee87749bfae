import { createdAtSort, defineResource } from './resource-definition';

export const teams = defineResource({
  type: 'teams',
  relationships: {
    members: { type: 'users', many: true },
    organisation: { type: 'organisations' },
    schemas: { type: 'form-schemas', many: true },
  },
  self: 'getTeam',
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name' },
      created_at: { kind: 'time', path: 'meta.created_at' },
      updated_at: { kind: 'time', path: 'meta.updated_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: ['members'],
  },
});
