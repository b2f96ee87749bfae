/**
 * The features an organisation may switch off, one per area whose manifest declares one, by the area's
 * name: each organisation's switch is its feature configuration record with an id derived from both
 * (`data/feature-switches.ts`). The composition root registers it from the manifests; the feature
 * configurations function's entry carries it as build-time data made from the same map
 * (`infra/area-bundle.ts`). Asked for where neither registered it, it refuses, never lists fewer.
 */
import type { FeatureDeclaration } from './area';

let registered: ReadonlyMap<string, FeatureDeclaration> | undefined;

export const registerFeatureCatalogue = (features: Iterable<readonly [string, FeatureDeclaration]>): void => {
  registered = new Map(features);
};

export const featureCatalogue = (): ReadonlyMap<string, FeatureDeclaration> => {
  if (!registered)
    throw new Error('the feature catalogue is asked for where it was not registered: load shared/routes.ts');
  return registered;
};
