/** A body for each of the feature-configurations area's write routes; see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  updateFeatureConfiguration: (i) => ({
    data: { type: 'feature-configurations', id: i.feature_configuration_id, attributes: { enabled: false } },
  }),
};
