import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { featureConfigurations } from './definitions';
import { configurationsOf } from './switches';

/**
 * GET /v3/feature-configurations: across every organisation where the caller may view them, the switches
 * not yet stored among them.
 */
export const handler = jsonApiHandler('listFeatureConfigurations', (request) =>
  listInMemory(request, featureConfigurations, () => configurationsOf(request.scope)),
);
