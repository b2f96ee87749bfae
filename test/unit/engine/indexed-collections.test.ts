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

/** Collections whose filters still read their partition, and why. Remove a type once it is indexed. */
const NOT_YET_INDEXED: Record<string, string> = {
  organisations: "a caller's organisations are read by key from its memberships, not from a partition",
  'iam-permissions': 'the permission catalogue, held in code: no table read',
  teams: `${REFERENCE}; \`filter[updated_at.since]\` (incremental sync) has no index yet`,
  'job-roles': `${REFERENCE}; \`filter[code]\` is a uniqueness claim, which no filter reads yet`,
  'qualification-types': `${REFERENCE}; \`filter[code]\` is a uniqueness claim`,
  'qualification-specifications': `${REFERENCE}; \`filter[code]\` is a uniqueness claim`,
  'site-settings': REFERENCE,
  'feature-configurations': REFERENCE,
  'service-accounts': REFERENCE,
  grants: `${REFERENCE}: a few per user and team`,
  roles: REFERENCE,
  'sso-providers': REFERENCE,
  'audit-events': "bucketed by month; a subject's entries are its history route (`/{id}/history`)",
  properties: 'governance reference data shared across organisations (`filter[organisation]`)',
  streets: 'governance reference data shared across organisations (`filter[organisation]`)',
  'import-templates': REFERENCE,
  'location-imports': REFERENCE,
  'scheme-contracts': REFERENCE,
  'rate-codes': REFERENCE,
  appointments: REFERENCE,
  'pre-construction-information': REFERENCE,
  'hazard-proposals': REFERENCE,
  'construction-phase-plans': REFERENCE,
  'construction-phase-plan-risks': REFERENCE,
  'construction-phase-plan-versions': REFERENCE,
  'construction-phase-plan-proposed-changes': REFERENCE,
  'customer-contacts': REFERENCE,
  'customer-accounts': REFERENCE,
  agents: REFERENCE,
  'device-backups': 'kept 30 days: a device per ten workers, about 5,000 standing',
  'device-backup-requests': REFERENCE,
  exports: `${REFERENCE}; a creator's own are on \`gsi1\` (\`by-creator\`)`,
  jobs: `${REFERENCE}; a creator's own are on \`gsi1\` (\`by-creator\`)`,
  'webhook-subscriptions': REFERENCE,
  'webhook-deliveries': "kept 30 days; a subscription's own are on `lsi1` (`by-subscription`)",
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
