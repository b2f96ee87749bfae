import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { featureConfigurations } from '#shared/resources/feature-configurations/definitions';

/** GET /v3/feature-configurations: across every organisation where the caller may view them. */
export const handler = jsonApiHandler('listFeatureConfigurations', (request) =>
  listResources(request, featureConfigurations),
);
