/** Places an organisation manages. */
import { createdAtSort, defineResource } from '../resource-definition';

export const locations = defineResource({
  type: 'locations',
  relationships: { organisation: { type: 'organisations' } },
  selfPath: (r) => `/v3/orgs/${r.org_id}/governance/locations/${r.id}`,
  collection: {
    filters: {
      reference: { kind: 'eq', path: 'attributes.reference' },
      name: { kind: 'eq', path: 'attributes.name' },
      location: { kind: 'box', path: 'attributes.location' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: {
      name: { path: 'attributes.name', index: 'lsi1' },
      reference: { path: 'attributes.reference', index: 'lsi2' },
      ...createdAtSort,
    },
    defaultSort: 'name',
    includes: [],
  },
});
