/**
 * Whether an organisation has a feature (an area its manifest says may be switched off) switched on. The
 * switch is the organisation's feature configuration record for the feature, whose id derives from the
 * organisation and the feature's name, so a request names its key from the route and the organisation
 * alone and reads it in the round trip that reads the credentials. No record: the feature is on. Here,
 * below the feature-configurations area's declaration, because the authorisation middleware, the event
 * stream and the due-work runner read it and import no area (as `organisation-settings.ts`).
 */

import { config } from '../config';
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

/**
 * Whether a caller holding `granted` in an organisation may make a `method` request of a feature switched
 * off there: its reads, holding `FEATURE_ADMINISTRATION`. Such a request needs no switch read at all.
 */
export const passesSwitch = (method: string, granted: ReadonlySet<Permission> | undefined) =>
  method === 'GET' && granted?.has(FEATURE_ADMINISTRATION) === true;

/** A switch as read: off only when its record says `enabled: false`. */
const switchedOff = (item: unknown) => (item as StoredResource | null)?.attributes?.enabled === false;

/**
 * Switches as this warm container last read them, for as long as it keeps a principal's grants
 * (GRANT_CACHE_SECONDS): a switch takes effect within that time, as a revoked grant does, and a warm
 * request on a switchable route reads no switch at all.
 */
const lastRead = new Map<string, { expires: number; off: boolean }>();

const remembered = (id: string) => {
  const known = lastRead.get(id);
  return known && known.expires > Date.now() ? known : undefined;
};

/** The keys of the switches of `feature` in `orgIds` this container does not remember: to read ahead. */
export const unknownSwitchKeys = (feature: string, orgIds: readonly string[]): ItemKey[] =>
  orgIds.map((org) => featureSwitchKey(org, feature)).filter((key) => !remembered(keyId(key)));

/**
 * Which of `orgIds` have `feature` switched off: remembered ones from the container, those `read` holds
 * (read ahead with the credentials) from it, the rest in one BatchGetItem (none when all were known).
 */
export const switchedOffIn = async (
  feature: string,
  orgIds: readonly string[],
  read: Map<string, unknown> = new Map(),
): Promise<Set<string>> => {
  const keyOf = new Map(orgIds.map((org) => [org, keyId(featureSwitchKey(org, feature))] as const));
  const unread = orgIds.filter((org) => {
    const id = keyOf.get(org) ?? '';
    return !read.has(id) && !remembered(id);
  });
  const fetched =
    unread.length > 0 ? await readTogether(unread.map((org) => featureSwitchKey(org, feature))) : new Map();
  const expires = Date.now() + config.GRANT_CACHE_SECONDS * 1000;
  return new Set(
    orgIds.filter((org) => {
      const id = keyOf.get(org) ?? '';
      const known = remembered(id);
      if (known && !read.has(id)) return known.off;
      const off = switchedOff(read.has(id) ? read.get(id) : fetched.get(id));
      read.delete(id);
      lastRead.set(id, { expires, off });
      return off;
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
