/**
 * Whether an organisation has a feature (an area its manifest says may be switched off) switched on. The
 * switch is the organisation's feature configuration record for the feature, whose id derives from the
 * organisation and the feature's name, so a request names its key from the route and the organisation
 * alone and reads it in the round trip that reads the credentials. No record: the feature is on. Here,
 * below the feature-configurations area's declaration, because the authorisation middleware, the event
 * stream and the due-work runner read it and import no area (as `organisation-settings.ts`).
 */

import type { Permission } from '../domain/permissions';
import { uuidv5 } from './ids';
import { readTogether } from './repository';
import { type ItemKey, keyId, resourceKey, type StoredResource } from './stored-resource';

/** The namespace of catalogued features' configuration ids (RFC 9562 UUID v5): a fixed UUID of this service's own. */
const FEATURE_CONFIGURATION_IDS = 'c3f1d0a2-9b7e-4c55-8f0d-2e6a4b1c7d93';

export const featureConfigurationIdOf = (orgId: string, feature: string) =>
  uuidv5(`${orgId}:${feature}`, FEATURE_CONFIGURATION_IDS);

/** The key of the record that switches `feature` for `orgId`. */
export const featureSwitchKey = (orgId: string, feature: string): ItemKey =>
  resourceKey(orgId, 'feature-configurations', featureConfigurationIdOf(orgId, feature));

/**
 * Who may still read a switched-off feature's data: whoever may switch it back on (the built-in admin
 * role holds it), so an organisation's administrators can see what the feature holds before deciding.
 */
export const FEATURE_ADMINISTRATION: Permission = 'feature-configurations:manage';

/** A switch as read: off only when its record says `enabled: false`. */
const switchedOff = (item: unknown) => (item as StoredResource | null)?.attributes?.enabled === false;

/**
 * Which of `orgIds` have `feature` switched off: the keys `read` holds (read ahead with the credentials)
 * are taken from it, the rest read in one BatchGetItem (none when all were read ahead).
 */
export const switchedOffIn = async (
  feature: string,
  orgIds: readonly string[],
  read: Map<string, unknown> = new Map(),
): Promise<Set<string>> => {
  const keyOf = new Map(orgIds.map((org) => [org, keyId(featureSwitchKey(org, feature))] as const));
  const unread = orgIds.filter((org) => !read.has(keyOf.get(org) ?? ''));
  const fetched =
    unread.length > 0 ? await readTogether(unread.map((org) => featureSwitchKey(org, feature))) : new Map();
  return new Set(
    orgIds.filter((org) => {
      const id = keyOf.get(org) ?? '';
      const item = read.has(id) ? read.get(id) : fetched.get(id);
      read.delete(id);
      return switchedOff(item);
    }),
  );
};

/** Which `(organisation, feature)` pairs are switched off, in one BatchGetItem: for the stream and the runner. */
export const switchedOffPairs = async (
  pairs: readonly { orgId: string; feature: string }[],
): Promise<Set<string>> => {
  if (pairs.length === 0) return new Set();
  const read = await readTogether(pairs.map(({ orgId, feature }) => featureSwitchKey(orgId, feature)));
  return new Set(
    pairs
      .filter(({ orgId, feature }) => switchedOff(read.get(keyId(featureSwitchKey(orgId, feature)))))
      .map(({ orgId, feature }) => switchPairId(orgId, feature)),
  );
};

export const switchPairId = (orgId: string, feature: string) => `${orgId}\n${feature}`;
