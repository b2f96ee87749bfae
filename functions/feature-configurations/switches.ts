/**
 * Every organisation has a switch for each catalogued feature (`featureCatalogue`: one per area that
 * declares one) from the start, on, though nothing stores it until someone first changes it: like the
 * built-in roles, it is served from code until then. Its id derives from the organisation and the feature
 * (`data/feature-switches.ts`), so it is found by id without a record, and its first PATCH stores it
 * (`configuration-writes.ts`). Here, not in the declaration: the catalogue is registered when the
 * composition root (or the function's entry) has loaded, after the declaration.
 */
import { featureConfigurationIdOf } from '#shared/data/feature-switches';
import { readPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { featureCatalogue } from '#shared/engine/feature-catalogue';
import { toStoredResource } from '#shared/engine/stored';
import { featureConfigurations } from './definitions';

/** What a switch is before it is stored: on, at version 0 (its ETag names "not yet written"). */
const unstoredSwitch = (orgId: string, feature: string, description: string): StoredResource => ({
  ...toStoredResource(featureConfigurations, {
    orgId,
    id: featureConfigurationIdOf(orgId, feature),
    attributes: { domain: feature, component: 'area', enabled: true },
    meta: { name: description },
  }),
  version: 0,
});

/** The organisation's switch of each catalogued feature, as served before any is stored. */
const unstoredSwitchesOf = (orgId: string): StoredResource[] =>
  [...featureCatalogue()].map(([feature, { description }]) => unstoredSwitch(orgId, feature, description));

/** The switch whose id this is in one of `orgIds` (the caller's scope, so never another's), if any. */
export const unstoredSwitchWithId = (orgIds: readonly string[], id: string): StoredResource | undefined =>
  orgIds.flatMap(unstoredSwitchesOf).find((record) => record.id === id);

/**
 * The feature configurations of the scope's organisations: the stored ones (switches once changed, and
 * the operators' other configurations) and the switches not yet stored. A few dozen an organisation, so
 * the collection's filters, sort and pages apply in memory.
 */
export const configurationsOf = async (scope: Scope): Promise<StoredResource[]> => {
  const stored = (
    await Promise.all(scope.orgIds.map((org) => readPartition(scope, org, featureConfigurations.type)))
  ).flat();
  const storedIds = new Set(stored.map((record) => record.id));
  return [
    ...stored,
    ...scope.orgIds.flatMap(unstoredSwitchesOf).filter((record) => !storedIds.has(record.id)),
  ];
};
