/**
 * Signing in at a site's gate: the gate's checks (data read in two round trips: the site, its settings,
 * the person and the organisation's settings with the site's inductions; then the specification the site
 * requires), one open attendance per person per site (a claim: of two concurrent sign-ins exactly one
 * wins), and the automatic sign-out at the site's closing time on the schedule, all in one transaction.
 */

import * as z from 'zod';
import { users } from '#functions/people/users';
import { locations } from '#functions/places/definitions';
import { schemes } from '#functions/projects/definitions';
import { qualificationSpecifications, qualificationTypes } from '#functions/qualifications/definitions';
import { awardsOf } from '#functions/qualifications/person-awards';
import { dayOf } from '#functions/qualifications/rules/awards';
import type { Rule } from '#functions/qualifications/rules/rules';
import type { Principal } from '#shared/auth/principal';
import { declareAccessPatterns, keyFrom, partitionFrom } from '#shared/data/access-patterns';
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { batchGetInScope, queryItems, readAheadOr } from '#shared/data/repository';
import { scheduleEntry, scheduleOp } from '#shared/data/schedules';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import type { WriteRefused } from '#shared/data/transaction';
import {
  byPrincipal,
  createRecord,
  newRecord,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { line, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';
import {
  DEFAULT_CLOSING_TIME,
  onSitePartition,
  siteAttendances,
  siteOf,
  siteSettings,
  siteSettingsIdOf,
} from './definitions';
import { type GateChecks, gateChecks, notChecked } from './rules/gate';
import { nextClosing } from './rules/site-day';

export const AUTO_SIGN_OUT = 'site-attendance-closing';

const relationship = (name: string) => relationshipSchema(siteAttendances, name).optional();

export const signInDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('site-attendances'),
    attributes: z.strictObject({
      method_in: z.enum(['app', 'kiosk', 'qr', 'manual']),
      attendee_kind: z.enum(['worker', 'visitor']).optional(),
      // Someone without an account: who they are, as they gave it at the gate.
      guest: z
        .strictObject({ name: requiredLine(200), company: line(200).optional(), phone: line(40).optional() })
        .optional(),
      employer: line(200).optional(),
      // A manager's override of a refusal (needs site-attendances:override): why, in words.
      override: z.strictObject({ reason: requiredText(1000) }).optional(),
    }),
    relationships: z.strictObject({
      person: relationship('person'),
      scheme: relationship('scheme'),
      location: relationship('location'),
    }),
  }),
});

/** Where a person's open attendance at a site is claimed: one at a time. */
const keys = declareAccessPatterns('site-attendances/sign-in-writes', {
  'open-attendance': {
    ...tenantPattern('open-attendances', '{site_id}#{person_id}'),
    about: '`holder_id` (the attendance); claimed at sign-in, removed at sign-out',
  },
});
export const openAttendanceKey = (orgId: string, siteId: string, personId: string) =>
  keyFrom(keys['open-attendance'], { org_id: orgId, site_id: siteId, person_id: personId });

const problem = (pointer: string, detail: string) => new ValidationError({ detail, source: { pointer } });

/** What the gate needs to know about a site and a person, read in two round trips. */
const gateFacts = async (
  scope: Scope,
  orgId: string,
  siteId: string,
  isScheme: boolean,
  personId: string | null,
) => {
  const siteKey = (isScheme ? schemes : locations).keyOf(orgId, siteId);
  const settingsOfSite = siteSettings.keyOf(orgId, siteSettingsIdOf(siteId));
  const [records, organisation, inductions] = await Promise.all([
    batchGetInScope(scope, [siteKey, settingsOfSite, ...(personId ? [users.keyOf(orgId, personId)] : [])]),
    readAheadOr<StoredResource>(scope, [settingsKey(orgId)]),
    queryItems<{ qualification_type: string }>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :site)',
      ExpressionAttributeValues: {
        ':pk': partitionFrom(qualificationTypes.keys['site-induction'], { org_id: orgId }),
        ':site': `${siteId}#`,
      },
      ProjectionExpression: 'qualification_type',
    }),
  ]);
  const find = (key: { pk: string; sk: string }) =>
    records.find((r) => r.pk === key.pk && r.sk === key.sk) ?? null;
  const rules = find(settingsOfSite);
  const specificationId = rules?.rels.required_specification;
  const [specification] =
    typeof specificationId === 'string'
      ? await batchGetInScope(scope, [qualificationSpecifications.keyOf(orgId, specificationId)])
      : [];
  return {
    site: find(siteKey),
    person: personId ? find(users.keyOf(orgId, personId)) : null,
    rules,
    timezone: settingsOf(organisation[0] ?? null).timezone,
    inductions: inductions.map((entry) => entry.qualification_type),
    specification: specification
      ? { id: specification.id, rule: specification.attributes.rule as Rule }
      : null,
  };
};

/** The 409 a refusal is: what is missing, and how to get in anyway. */
const refusal = (checks: GateChecks) =>
  new ConflictError(
    `Refused at the gate: missing ${checks.missing.join('; ')}. A manager holding site-attendances:override may sign them in with a reason.`,
  );

export const signIn = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal,
  now = new Date(),
) => {
  const { data } = parseDocument(signInDocument, body);
  const { attributes } = data;
  const rels = storedRelationships(data.relationships);
  const siteId = siteOf({ rels });
  if (!siteId || (rels.scheme && rels.location))
    throw problem('/data/relationships', 'An attendance names its site: a scheme or a location, not both.');
  const personId = typeof rels.person === 'string' ? rels.person : null;
  if (!personId && !attributes.guest)
    throw problem(
      '/data/attributes/guest',
      'Someone without an account signs in as a guest: give their name.',
    );
  if (attributes.override && !principal.permissions.get(orgId)?.has('site-attendances:override'))
    throw new ForbiddenError('Overriding the gate needs the site-attendances:override permission.');
  const facts = await gateFacts(scope, orgId, siteId, typeof rels.scheme === 'string', personId);
  if (!facts.site)
    throw problem(
      `/data/relationships/${rels.scheme ? 'scheme' : 'location'}/data`,
      'No such site in this organisation.',
    );
  if (personId && !facts.person)
    throw problem('/data/relationships/person/data', 'No such user in this organisation.');
  const kind = attributes.attendee_kind ?? 'worker';
  const day = dayOf(now.getTime());
  const checks =
    kind === 'visitor'
      ? notChecked(day)
      : gateChecks(
          {
            inductions: facts.inductions,
            specification: facts.specification,
            missingQualification:
              facts.rules?.attributes.missing_qualification === 'refuse' ? 'refuse' : 'warn',
          },
          facts.person ? awardsOf(facts.person) : null,
          day,
          attributes.override !== undefined,
        );
  if (checks.outcome === 'refused') throw refusal(checks);
  const { override, ...given } = attributes;
  const draft = newRecord(
    siteAttendances,
    orgId,
    {
      attributes: {
        ...given,
        attendee_kind: kind,
        guest: given.guest ?? null,
        employer: given.employer ?? null,
        signed_in_at: now.toISOString(),
        signed_out_at: null,
        method_out: null,
        checks,
        // Kept only when it let someone in: who overrode the gate, and why.
        override:
          checks.outcome === 'overridden' && override
            ? { reason: override.reason, by: principal.id, at: now.toISOString() }
            : null,
        corrections: [],
      },
      meta: { on_site: true },
      rels: {
        ...rels,
        person: personId,
        ...byPrincipal('signed_in_by', principal, 'signed_in_by'),
      },
    },
    now,
  );
  const closing = String(facts.rules?.attributes.closing_time ?? DEFAULT_CLOSING_TIME);
  const entry = scheduleEntry(
    AUTO_SIGN_OUT,
    orgId,
    draft.id,
    nextClosing(now.getTime(), closing, facts.timezone),
  );
  const attendance: StoredResource = {
    ...draft,
    gsi1pk: onSitePartition(orgId, siteId),
    gsi1sk: draft.id,
    schedule: { pk: entry.pk, sk: entry.sk },
  };
  const claim = personId
    ? [{ claim: { ...openAttendanceKey(orgId, siteId, personId), holder_id: draft.id, org_id: orgId } }]
    : [];
  const refused = (error: WriteRefused): never => {
    if (claim.length > 0 && error.op === 1)
      throw new ConflictError('This person is signed in at this site already: sign them out first.');
    throw new ConflictError('The site or the person changed while signing in; try again.');
  };
  // Read above, and checked again as the attendance commits: neither may have gone meanwhile.
  const { scheme, location, person } = attendance.rels;
  return createRecord(scope, siteAttendances, attendance, [...claim, scheduleOp(entry)], refused, {
    scheme: scheme ?? null,
    location: location ?? null,
    person: person ?? null,
  });
};
