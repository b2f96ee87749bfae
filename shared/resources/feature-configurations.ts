import { createdAtSort, defineResource } from './resource-definition';

export const featureConfigurations = defineResource({
  type: 'feature-configurations',
  relationships: { organisation: { type: 'organisations' } },
  self: 'getFeatureConfiguration',
  collection: {
    filters: {
      domain: { kind: 'eq', path: 'attributes.domain' },
      component: { kind: 'eq', path: 'attributes.component' },
      enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: { domain: { path: 'attributes.domain', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'domain',
    includes: ['organisation'],
  },
});
