import { getHandler } from '#shared/http/crud-handlers';
import { featureConfigurations } from '#shared/resources/feature-configurations';

/** GET /v3/feature-configurations/{feature_configuration_id}, in whichever of the caller’s organisations holds it. */
export const handler = getHandler(
  'getFeatureConfiguration',
  featureConfigurations,
  'feature_configuration_id',
);
