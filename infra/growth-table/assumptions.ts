/**
 * The growth table's assumptions, all in one place: the largest tenant we plan for and what it writes. The
 * rates are estimates (the product's own, not measured); change one here and `npm run growth` derives the
 * rest. Every collection the measurement saw and this list does not name is reference data (`REFERENCE`).
 */
export const TENANT = { workers: 50_000, sites: 500, years: 10 } as const;
export const WORKING_DAYS = 230;
/** The busiest half hour (the morning sign-in) carries this share of a working day's writes. */
export const PEAK_SHARE = 0.3;
export const PEAK_SECONDS = 1_800;
/** Reads at peak for each write at peak (lists, the roll call, records opened): a generous guess. */
export const READS_PER_WRITE = 10;
/** DynamoDB's limits: one item collection with local indexes, one partition key's throughput. */
export const LIMITS = {
  collectionBytes: 10 * 2 ** 30,
  writesPerSecond: 1_000,
  readsPerSecond: 3_000,
} as const;

export interface Rate {
  /** Records made a year by the largest tenant. */
  perYear: number;
  /** Events each record causes over its life (its create, updates, transitions, delete): audit entries. */
  events: number;
  /** Kept this many days (a TTL), so the collection stands at that much, however many years pass. */
  keptDays?: number;
  /** Removed when done (a claim, work due), so the collection holds at most this many, whatever the years. */
  standing?: number;
  why: string;
}

const { workers, sites } = TENANT;
/** Collections the measurement names (`ORG#<id>#<type>`), at the rates the tenant makes them. */
export const RATES: Record<string, Rate> = {
  'ORG#<id>#site-attendances': {
    perYear: workers * WORKING_DAYS,
    events: 2,
    why: 'a sign-in a worker a working day; signed out',
  },
  'ORG#<id>#qualification-awards': {
    perYear: workers * 2,
    events: 3,
    why: 'two a worker a year; approved, one warning',
  },
  'ORG#<id>#users': {
    perYear: workers * 0.25,
    events: 4,
    why: 'a quarter of the workforce joins a year; a few edits',
  },
  'ORG#<id>#invitations': { perYear: workers * 0.25, events: 2, why: 'one per joiner' },
  'ORG#<id>#briefings': { perYear: sites * WORKING_DAYS, events: 2, why: 'a briefing a site a working day' },
  'ORG#<id>#actions': {
    perYear: sites * 300,
    events: 5,
    why: 'three hundred follow-ups a site a year (inspections, permits, reviews); a few moves each',
  },
  'ORG#<id>#action-types': { perYear: 20, events: 2, why: 'a few kinds of follow-up, rarely changed' },
  'ORG#<id>#comments': { perYear: sites * 1_000, events: 1, why: 'a thousand a site a year' },
  'ORG#<id>#documents': { perYear: sites * 200, events: 2, why: 'two hundred a site a year' },
  'ORG#<id>#document-versions': {
    perYear: sites * 400,
    events: 2,
    why: 'two versions a document; uploaded, completed',
  },
  'ORG#<id>#site-hazards': { perYear: sites * 50, events: 3, why: 'fifty a site a year' },
  'ORG#<id>#permits': {
    perYear: sites * 200,
    events: 5,
    why: 'street-works permits: two hundred a site a year, each a few notices',
  },
  'ORG#<id>#street-works': { perYear: sites * 200, events: 5, why: 'as permits' },
  'ORG#<id>#street-works-protections': {
    perYear: sites * 1_000,
    events: 1,
    why: 'five notifications a permit',
  },
  'ORG#<id>#vehicle-inventory-checks': {
    perYear: (workers / 25) * 52,
    events: 1,
    why: 'a vehicle per 25 workers, checked weekly',
  },
  'ORG#<id>#equipment-items': {
    perYear: workers * 0.1,
    events: 4,
    why: 'one item per ten workers a year; moved, repaired',
  },
  'ORG#<id>#cost-lines': { perYear: sites * 2_000, events: 1, why: 'two thousand cost lines a site a year' },
  'ORG#<id>#operations': { perYear: sites * 200, events: 4, why: 'two hundred operations a site a year' },
  'ORG#<id>#work-orders': { perYear: sites * 20, events: 4, why: 'twenty work orders a site a year' },
  'ORG#<id>#customer-interactions': { perYear: sites * 500, events: 1, why: 'five hundred a site a year' },
  'ORG#<id>#customer-appointments': { perYear: sites * 100, events: 3, why: 'a hundred a site a year' },
  'ORG#<id>#webhook-deliveries': {
    perYear: 0,
    events: 0,
    keptDays: 30,
    why: 'one per event per subscription (one subscription assumed), kept 30 days',
  },
  'ORG#<id>#device-backups': {
    perYear: (workers / 10) * 12,
    events: 2,
    keptDays: 30,
    why: 'a device per ten workers backed up monthly, kept 30 days',
  },
  'ORG#<id>#open-attendances': {
    perYear: 0,
    events: 0,
    standing: workers,
    why: 'a claim per worker on site, removed at sign-out',
  },
  'ORG#<id>#due-work': {
    perYear: 0,
    events: 0,
    standing: workers * 3,
    why: 'a sign-out per open attendance, an expiry warning per live award; removed when run',
  },
  'ORG#<id>#equipment-serials': { perYear: workers * 0.1, events: 0, why: 'a claim per equipment item' },
  'EVENTS#<id>': { perYear: 0, events: 0, keptDays: 35, why: 'one per event of the tenant, kept 35 days' },
};

/**
 * Collections already bucketed by time (data/time-buckets.ts), and their buckets a year: each bucket is an
 * item collection of its own, which stops growing when its month ends.
 */
export const BUCKETED: Record<string, number> = {
  'ORG#<id>#audit-events': 12,
  'ORG#<id>#site-attendances': 12,
};

/** Every other collection: types an organisation configures (roles, sites, templates), or a few a day. */
export const REFERENCE: Rate = {
  perYear: 1_000,
  events: 2,
  why: 'reference data: a thousand a year at most',
};

/**
 * Collections whose records follow from the others' events or records, derived in write.ts: audit entries
 * (one per event, kept for good), the outbox and deliveries (one per event, TTL), counters (one ADD per
 * create and one or two per audit entry, into one partition per organisation). The audit consumer's state
 * items, one per subject, are gone since events carry what they changed (issue 42, item 7; migration 25).
 */
export const DERIVED = {
  audit: 'ORG#<id>#audit-events',
  events: 'EVENTS#<id>',
  deliveries: 'ORG#<id>#webhook-deliveries',
  counters: 'ORG#<id>#counters',
} as const;
