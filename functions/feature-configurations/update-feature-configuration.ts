import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { updateConfiguration } from './configuration-writes';
import { featureConfigurations } from './definitions';
import { unstoredSwitchWithId } from './switches';

export { updateConfigurationDocument as requestBody } from './configuration-writes';

/** PATCH /v3/feature-configurations/{id}: `enabled`; a switch not yet stored is stored by its first change. */
export const handler = jsonApiHandler('updateFeatureConfiguration', async (request) => {
  const record = await readInScope(
    request.scope,
    featureConfigurations,
    request.params.feature_configuration_id,
    unstoredSwitchWithId,
  );
  return resourceResponse(
    request,
    featureConfigurations,
    await updateConfiguration(request.scope, record, request.body),
  );
});
