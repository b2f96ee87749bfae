import { defineArea } from '../area';
import { featureConfigurations } from '../feature-configurations';

export const area = defineArea('feature-configurations', {
  resources: [featureConfigurations],
  routes: [],
});
