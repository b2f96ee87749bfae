import { defineArea } from '../area';
import { featureConfigurations } from './definitions';

export const area = defineArea('feature-configurations', {
  resources: [featureConfigurations],
  routes: [],
});
