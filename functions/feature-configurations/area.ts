import { defineArea } from '#shared/engine/area';
import { featureConfigurations } from './definitions';

export const area = defineArea('feature-configurations', {
  tag: 'Feature Configurations',
  permissions: {
    'feature-configurations:view': 'See which features are configured for the organisation.',
    'feature-configurations:manage': 'Change feature configurations.',
  },
  resources: [featureConfigurations],
  routes: [],
});
