import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const featureConfigurations = defineResource({
  type: 'feature-configurations',
  names: { one: 'FeatureConfiguration', many: 'FeatureConfigurations' },
  collectionPath: '/v3/feature-configurations',
  itemPath: '/v3/feature-configurations/{feature_configuration_id}',
  permission: 'feature-configurations',
  endpoints: {
    list: 'functions/feature-configurations/list-feature-configurations.ts',
    get: 'functions/feature-configurations/get-feature-configuration.ts',
    update: 'functions/feature-configurations/update-feature-configuration.ts',
  },
  // Switched with PATCH (`feature-configurations:manage`); what a configuration configures is the operators'.
  writes: async () => {
    const { z } = await loadSchemaBuilders();
    return { attributes: { enabled: z.boolean() } };
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      name: z.string().optional(),
      domain: z.string(),
      component: z.string(),
      enabled: z.boolean(),
    };
  },
  collection: {
    filters: {
      created_at: false,
      domain: { kind: 'eq', path: 'attributes.domain' },
      component: { kind: 'eq', path: 'attributes.component' },
      enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: { domain: { path: 'attributes.domain', index: 'lsi1' } },
    defaultSort: 'domain',
    includes: ['organisation'],
  },
});
