import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { featureConfigurations } from './definitions';
import { unstoredSwitchWithId } from './switches';

/** GET /v3/feature-configurations/{id}: a stored configuration, or a switch not yet stored (on). */
export const handler = jsonApiHandler('getFeatureConfiguration', async (request) =>
  resourceResponse(
    request,
    featureConfigurations,
    await readInScope(
      request.scope,
      featureConfigurations,
      request.params.feature_configuration_id,
      unstoredSwitchWithId,
    ),
  ),
);
