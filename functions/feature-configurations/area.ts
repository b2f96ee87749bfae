import { defineArea } from '#shared/engine/area';
import { featureConfigurations } from './definitions';

export const area = defineArea('feature-configurations', {
  tag: 'Feature Configurations',
  resources: [featureConfigurations],
  routes: [],
});
