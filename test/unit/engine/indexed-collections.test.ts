/**
 * Issue 42, item 1: "A filter that is not index-backed is refused (400 naming the indexed ones) or bounded
 * (documented), never a silent partition read." A collection with an indexed filter reads no partition
 * whole for any filter: its other filters are taken only beside an indexed one (`refuseUnindexed` in
 * shared/jsonapi/collection-query.ts). Every collection that declares filters is such a collection, or is
 * listed below with why it is not yet; the list may only shrink, so what is owed stays in sight.
 * (`filter[organisation]`, on `org_id`, chooses partitions rather than filtering one, and is not counted.)
 */
import { describe, expect, it } from 'vitest';
import { resourceTypes } from '#shared/routes';

const REFERENCE = 'reference data, at most about a thousand a year (shared/data/README.md, "Growth")';
/** A filter no index keeps, which indexing the others would refuse alone (a 400): an API change not worth it. */
const refused = (filters: string) =>
  `no index keeps ${filters}, and indexing the others would refuse it alone`;
/** Lists without an organisation in the path: the engine reads an index within one organisation only. */
const ACROSS = "listed across a caller's organisations, where the engine reads no index (it does within one)";
/** A parent's own, listed under it: the parent's records, never the organisation's. */
const UNDER = (parent: string) => `a ${parent}'s own, listed under it`;
/** Lists read from their own key range (`listKept`): every filter narrows that range, not the partition. */
const KEPT = (days: number, range: string) =>
  `kept ${days} days and listed from ${range} (\`listKept\`): every filter narrows that range, never the organisation's partition`;

/**
 * Collections whose filters still read their partition (or a range the list already bounds), and why.
 * Remove a type once it is indexed. The growing ones whose remaining filter needs an index slot of its own
 * (a \`gsi2\` entry and its migration) say so.
 */
const NOT_YET_INDEXED: Record<string, string> = {
  organisations: "a caller's organisations are read by key from its memberships, not from a partition",
  'iam-permissions': 'the permission catalogue, held in code: no table read',
  'site-settings': `${REFERENCE}: one a site; \`scheme\` and \`location\` have no index`,
  'feature-configurations': `${ACROSS}; ${refused('`component` or `enabled`')} (\`domain\` sorts on lsi1)`,
  grants: `${REFERENCE}: a few per user and team; its filters are relationships with no index entry (a per-user entry on \`gsi2\` is owed if grants grow)`,
  roles: `${REFERENCE}; ${refused('`built_in` (the built-in roles are held in code)')}`,
  'sso-providers': `${ACROSS}: a few per organisation`,
  'audit-events': "bucketed by month; a subject's entries are its history route (`/{id}/history`)",
  properties: `governance reference data, ${ACROSS}; \`uprn\` and \`postcode\` have no index`,
  streets: `governance reference data, ${ACROSS}; \`usrn\` and \`town\` have no index`,
  appointments: `${UNDER('scheme')}: its CDM duty holders`,
  'pre-construction-information': `${REFERENCE}, ${ACROSS}`,
  'hazard-proposals': UNDER('pre-construction information pack'),
  'construction-phase-plans': `${REFERENCE}, ${ACROSS}`,
  'construction-phase-plan-risks': `${UNDER('plan')}, at most 500 a plan (\`MAX_RISKS\`, functions/cdm/plans.ts)`,
  'construction-phase-plan-versions': UNDER('plan'),
  'construction-phase-plan-proposed-changes': UNDER('plan'),
  'device-backups':
    'kept 30 days (`listKept`): a device per ten workers, about 5,000 standing; `device`, `user` and `status` have no index',
  exports: KEPT(30, "the caller's own on `gsi1` (`by-creator`)"),
  jobs: KEPT(30, "the caller's own on `gsi1` (`by-creator`)"),
  'webhook-deliveries': KEPT(35, "a subscription's log on `lsi1` (`by-subscription`)"),
};

/** Each filtering collection's filters (not `false`, not the organisation's), and whether any is indexed. */
const collections = [...resourceTypes.values()].flatMap((definition) => {
  const filters = Object.values(definition.collection?.filters ?? {}).filter(
    (option) => option && option.path !== 'org_id',
  );
  if (filters.length === 0) return [];
  return [{ type: definition.type, indexed: filters.some((option) => option?.index) }];
});

describe('every filtering collection answers its filters from an index, or is listed as owed', () => {
  it('no collection outside the list reads its partition for a filter', () => {
    const unlisted = collections.filter((c) => !c.indexed && !(c.type in NOT_YET_INDEXED));
    expect(unlisted.map((c) => c.type)).toEqual([]);
  });

  it('the list only shrinks: a type indexed since is taken off it, and every listed type exists', () => {
    const listedIndexed = collections.filter((c) => c.indexed && c.type in NOT_YET_INDEXED);
    expect(listedIndexed.map((c) => c.type)).toEqual([]);
    const filtering = new Set(collections.map((c) => c.type));
    expect(Object.keys(NOT_YET_INDEXED).filter((type) => !filtering.has(type))).toEqual([]);
  });
});
