import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { featureConfigurations } from './definitions';

/** GET /v3/feature-configurations: across every organisation where the caller may view them. */
export const handler = jsonApiHandler('listFeatureConfigurations', (request) =>
  listResources(request, featureConfigurations),
);
