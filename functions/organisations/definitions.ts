import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/** An organisation is the root of its own tenant partition: it is stored in itself. */
export const organisations = defineResource({
  type: 'organisations',
  names: { one: 'Organisation', many: 'Organisations' },
  collectionPath: '/v3/orgs',
  itemPath: '/v3/orgs/{org_id}',
  permission: 'organisations',
  endpoints: { list: 'functions/organisations/list-organisations.ts', get: true },
  // Made by the platform's operators, not through the API.
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { name: z.string(), slug: z.string(), description: z.string() };
  },
  relationships: { organisation: false },
  // An organisation is filed in its own partition, whichever organisation it is read in.
  keys: { record: { index: 'table', pk: 'ORG#{id}#organisations', sk: '{id}' } },
  collection: {
    filters: {
      slug: { kind: 'eq', path: 'attributes.slug' },
      name: { kind: 'eq', path: 'attributes.name' },
    },
    sorts: { name: { path: 'attributes.name' }, slug: { path: 'attributes.slug' } },
    defaultSort: 'name',
    includes: [],
  },
});
