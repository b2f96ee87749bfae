/**
 * Site attendances (issue 22): who was on site and when, with or without an account. There is no register
 * resource: a day's register is `filter[day]` (or `filter[signed_in_at.since/until]`), and who is on site
 * now is `filter[on_site]=true` with the site, read from a sparse index of open attendances. A site is a
 * scheme or a location; its rules (closing time, the qualifications it requires) are its `site-settings`.
 * Writes: `sign-in.ts`, `corrections.ts`; sign-out is the declared machine's one move (its writes:
 * `attendance-moves.ts`), made by the person (`site-attendances:self`), the gate (`manage`) or the schedule at closing time
 * (`closing-time.ts`).
 */

import { qualificationSpecifications, SITE_SETTINGS_REQUIRING } from '#functions/qualifications/definitions';
import { ruleResultSchema } from '#functions/qualifications/rules/rules';
import { declareAccessPatterns, partitionFrom } from '#shared/data/access-patterns';
import type { FilterClause } from '#shared/data/collection-query';
import { uuidv5 } from '#shared/data/ids';
import type { StoredResource } from '#shared/data/stored-resource';
import { declareTimeBuckets } from '#shared/data/time-buckets';
import { defineLifecycle, type MoveContext } from '#shared/engine/lifecycle';
import { byPrincipal, countOnNamed } from '#shared/engine/moments';
import { defineResource } from '#shared/engine/resource-definition';
import { ValidationError } from '#shared/jsonapi/errors';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { notThePerson, SELF_PERMISSION } from './rules/self';
import { CLOCK_TIME } from './rules/site-day';
import { siteOf } from './rules/sites';

export { siteOf };

/** The sign-out's writes load when it is made: every function reads this declaration, few sign anyone out. */
const attendanceMoves = () => import('./attendance-moves');

/** An attendance is on site until it has an end; no state is stored beside the times. */
const attendanceState = (attendance: StoredResource) =>
  attendance.attributes.signed_out_at === null ? 'on_site' : 'signed_out';

/**
 * The end, now: by the person themselves (`self`), someone at the gate (`manual`), or the schedule at the
 * site's closing time (`auto`: the system's move, whose `now` is the closing time itself).
 */
const signedOutChanges = (attendance: StoredResource, { principal, now }: MoveContext) => ({
  attributes: {
    signed_out_at: now.toISOString(),
    method_out: principal === null ? 'auto' : principal.id === attendance.rels.person ? 'self' : 'manual',
  },
  meta: { on_site: false },
  rels: byPrincipal('signed_out_by', principal, 'signed_out_by'),
});

/** The `gsi1` partition of the attendances open on a site: who is there now. */
const keys = /* @__PURE__ */ declareAccessPatterns('site-attendances/definitions', {
  'on-site': {
    index: 'gsi1',
    pk: 'ON-SITE#{org_id}#{site_id}',
    sk: '{id}',
    about: 'an attendance while open; removed at sign-out (a sparse index: who is on the site now)',
  },
});
export const onSitePartition = (orgId: string, siteId: string) =>
  partitionFrom(keys['on-site'], { org_id: orgId, site_id: siteId });

const eqValue = (filters: readonly FilterClause[], field: string) => {
  const clause = filters.find((f) => f.field === field && f.op === 'eq');
  return clause?.op === 'eq' ? clause.value : undefined;
};

/**
 * Kept by the month (UTC) of their ids from January 2027 (a sign-in a worker a day passes one item
 * collection's 10 GB within months for the largest tenant: shared/data/README.md#growth). The id's month,
 * not the sign-in's: a record's key must follow from its id alone (a GET through the id directory, a
 * cursor, the sign-out due at closing time), and a sign-in is recorded when it happens, so the two are the
 * same month; a correction keeps the sign-in in that month (`corrections.ts`), so each month read by
 * `signed_in_at` (`lsi1`) one after another is the whole list in order. Attendances before stay in the
 * former partition, read as the oldest bucket; those the code before wrote there after, migration
 * `attendance-buckets-and-sites` moves.
 */
export const attendanceBuckets = declareTimeBuckets('site-attendances', {
  since: '2027-01',
  orderedWithin: ['lsi1', 'lsi2'],
});

export const siteAttendances = defineResource({
  type: 'site-attendances',
  keys: {
    ...attendanceBuckets.keys,
    // Its site, the scheme else the location, then its sign-in as the `signed_in_at` sort keeps it.
    'by-site': {
      index: 'lsi2',
      pk: attendanceBuckets.keys.record.pk,
      sk: '{rels.scheme|rels.location}#{attributes.signed_in_at:folded}',
      about:
        'an attendance under its site (scheme or location), in sign-in order: `filter[scheme]`, `filter[location]`',
    },
    // A person's attendances over the years are a few thousand: one partition of an index with no 10 GB cap.
    'by-person': {
      index: 'gsi2',
      pk: 'ATTENDANCES#{org_id}#{rels.person}',
      sk: '{attributes.signed_in_at:folded}#{id}',
      about:
        'an attendance with an account under its person, in sign-in order: `filter[person]` (guests have none)',
    },
  },
  keyOf: attendanceBuckets.keyOf,
  tag: 'Site Attendances',
  names: { one: 'SiteAttendance', many: 'SiteAttendances' },
  collectionPath: '/v3/orgs/{org_id}/site-attendances',
  itemPath: '/v3/site-attendances/{site_attendance_id}',
  permission: 'site-attendances',
  endpoints: {
    list: 'functions/site-attendances/list.ts',
    get: true,
    create: {
      handler: 'functions/site-attendances/sign-in.ts',
      answers: { status: 201, resource: 'site-attendances' },
      // A worker signs themselves in (rules/self.ts): the sign-in's decision holds them to it.
      party: SELF_PERMISSION,
    },
    update: 'functions/site-attendances/correct.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    const result = ruleResultSchema(z);
    return {
      method_in: z.enum(['app', 'kiosk', 'qr', 'manual']),
      method_out: z.enum(['self', 'manual', 'auto']).nullable().describe('Null while on site.'),
      attendee_kind: z.enum(['worker', 'visitor']),
      guest: z
        .strictObject({ name: z.string(), company: z.string().optional(), phone: z.string().optional() })
        .nullable()
        .describe('Someone without an account, as they gave it at the gate.'),
      employer: z.string().nullable(),
      signed_in_at: instant(),
      signed_out_at: instant().nullable(),
      checks: z
        .strictObject({
          on: z.iso.date(),
          outcome: z.enum(['passed', 'warned', 'refused', 'overridden', 'not_checked']),
          inductions: z.array(result),
          specification: z.strictObject({ id: z.string(), met: z.boolean(), result }).nullable(),
          missing: z.array(z.string()),
        })
        .describe("The gate's checks at sign-in (domain/site-attendances/gate.ts)."),
      override: z
        .strictObject({ reason: z.string(), by: z.string(), at: instant() })
        .nullable()
        .describe("A manager's override that let them in: why, who, when."),
      corrections: z.array(
        z.strictObject({
          field: z.enum(['signed_in_at', 'signed_out_at']),
          from: instant().nullable(),
          to: instant(),
          reason: z.string(),
          by: z.string(),
          at: instant(),
        }),
      ),
    };
  },
  relationships: {
    person: { type: 'users' },
    scheme: { type: 'schemes' },
    location: { type: 'locations' },
    signed_in_by: { type: 'users' },
    signed_in_by_service_account: { type: 'service-accounts' },
    signed_out_by: { type: 'users' },
    signed_out_by_service_account: { type: 'service-accounts' },
  },
  collection: {
    filters: {
      created_at: false,
      on_site: { kind: 'eq', path: 'meta.on_site', type: 'boolean' },
      scheme: { kind: 'eq', path: 'rels.scheme', index: 'by-site' },
      location: { kind: 'eq', path: 'rels.location', index: 'by-site' },
      person: { kind: 'eq', path: 'rels.person', index: 'by-person' },
      attendee_kind: { kind: 'eq', path: 'attributes.attendee_kind' },
      method_out: { kind: 'eq', path: 'attributes.method_out' },
      signed_in_at: { kind: 'time', path: 'attributes.signed_in_at', index: 'sort-signed_in_at' },
      signed_out_at: { kind: 'time', path: 'attributes.signed_out_at' },
    },
    sorts: { signed_in_at: { path: 'attributes.signed_in_at', index: 'lsi1' } },
    defaultSort: '-signed_in_at',
    includes: ['person', 'scheme', 'location', 'signed_in_by', 'signed_out_by'],
  },
  // Who is on a site now: the open attendances of that site alone, one Query whatever the history.
  sparseIndex: (orgId, filters) => {
    const site = eqValue(filters, 'scheme') ?? eqValue(filters, 'location');
    return eqValue(filters, 'on_site') === true && typeof site === 'string'
      ? onSitePartition(orgId, site)
      : null;
  },
  lifecycle: defineLifecycle({
    state: attendanceState,
    states: ['on_site', 'signed_out'],
    noun: 'attendance',
    transitions: {
      'sign-out': {
        from: ['on_site'],
        to: 'signed_out',
        event: 'signed-out',
        // The gate signs anyone out; a worker, themselves (from their phone, as they signed in).
        byParty: {
          permission: SELF_PERMISSION,
          rule: (attendance, caller) => notThePerson(attendance.rels.person, caller, 'out'),
        },
        changes: signedOutChanges,
        writes: async (moved, before) => (await attendanceMoves()).signOutWrites(moved, before),
      },
    },
  }),
});

/**
 * When a site without settings of its own closes: the end of the day, in the organisation's time zone, so
 * that every attendance ends on its day and produces hours.
 */
export const DEFAULT_CLOSING_TIME = '23:59';

/** The namespace of site settings' ids (RFC 9562 UUID v5): one record per site, its id from the site's. */
const SITE_SETTINGS_IDS = 'a3c5e0f2-4b61-4d8e-9f27-1c6b8d2e5a90';
export const siteSettingsIdOf = (siteId: string) => uuidv5(siteId, SITE_SETTINGS_IDS);

export const siteSettings = defineResource({
  type: 'site-settings',
  tag: 'Site Attendances',
  names: { one: 'SiteSetting', many: 'SiteSettings' },
  collectionPath: '/v3/orgs/{org_id}/site-settings',
  itemPath: '/v3/site-settings/{site_setting_id}',
  permission: 'site-attendances',
  endpoints: { list: true, get: true, create: true, update: true, delete: true },
  writes: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      attributes: {
        // When the site closes, in the organisation's time zone: anyone still signed in is signed out then.
        closing_time: z.string().regex(CLOCK_TIME, 'must be a time of day, HH:MM (24-hour), such as 18:00'),
        // Whether a sign-in by someone who does not meet the required specification is refused or only recorded.
        missing_qualification: z.enum(['refuse', 'warn']).optional(),
      },
      relationships: ['scheme', 'location', 'required_specification'],
      // Counted on the specification, which stays while a site requires it.
      keep: countOnNamed('required_specification', qualificationSpecifications, SITE_SETTINGS_REQUIRING),
      // One per site: its id is the site's (a second create is 409), and it stays with that site.
      prepare: (record, { before }) => {
        const site = siteOf(record);
        if (!site || (record.rels.scheme && record.rels.location))
          throw new ValidationError({
            detail: 'Site settings name their site: a scheme or a location, not both.',
            source: { pointer: '/data/relationships' },
          });
        if (before && record.id !== siteSettingsIdOf(site))
          throw new ValidationError({
            detail: 'Site settings stay with their site: create the other site’s settings instead.',
            source: { pointer: '/data/relationships' },
          });
        return { ...record, id: siteSettingsIdOf(site) };
      },
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    location: { type: 'locations' },
    required_specification: { type: 'qualification-specifications' },
  },
  collection: {
    filters: {
      scheme: { kind: 'eq', path: 'rels.scheme' },
      location: { kind: 'eq', path: 'rels.location' },
    },
    defaultSort: 'created_at',
    includes: ['scheme', 'location', 'required_specification'],
  },
});
