/**
 * Signing in at a site's gate, the model of a bespoke write (`defineWrite`): the facts the gate needs (read
 * in two round trips: the site, its settings, the person and the organisation's settings with the site's
 * inductions; then the specification the site requires), the gate's decision (`rules/sign-in.ts`), and one
 * transaction: the attendance, one open attendance per person per site (a claim: of two concurrent
 * sign-ins exactly one wins), and the automatic sign-out at the site's closing time on the due index.
 */

import * as z from 'zod';
import { users } from '#functions/people/users';
import { locations } from '#functions/places/definitions';
import { schemes } from '#functions/projects/definitions';
import { qualificationSpecifications, qualificationTypes } from '#functions/qualifications/definitions';
import { awardsOf } from '#functions/qualifications/person-awards';
import type { Rule } from '#functions/qualifications/rules/rules';
import type { Principal } from '#shared/auth/principal';
import { partitionFrom } from '#shared/data/access-patterns';
import { dueEntry, dueEntryOp } from '#shared/data/due-work';
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { batchGetInScope, queryItems, readAheadOr } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineWrite, type WriteRequest } from '#shared/engine/define-write';
import {
  byPrincipal,
  existenceChecks,
  newRecord,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { line, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError } from '#shared/jsonapi/errors';
import { openAttendanceKey } from './attendance-moves';
import {
  DEFAULT_CLOSING_TIME,
  onSitePartition,
  siteAttendances,
  siteSettings,
  siteSettingsIdOf,
} from './definitions';
import { AUTO_SIGN_OUT } from './due-work';
import { admitted, type GateFacts, type Named, namedAt } from './rules/sign-in';
import { nextClosing } from './rules/site-day';

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

/** What the gate needs to know about a site and a person, read in two round trips. */
const gateFacts = async (
  { scope, orgId }: WriteRequest,
  named: Named,
): Promise<GateFacts & { rules: StoredResource | null }> => {
  const { site, personId } = named;
  const siteKey = (site.isScheme ? schemes : locations).keyOf(orgId, site.id);
  const settingsOfSite = siteSettings.keyOf(orgId, siteSettingsIdOf(site.id));
  const personKey = personId ? users.keyOf(orgId, personId) : null;
  const [records, inductions] = await Promise.all([
    batchGetInScope(scope, [siteKey, settingsOfSite, ...(personKey ? [personKey] : [])]),
    queryItems<{ qualification_type: string }>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :site)',
      ExpressionAttributeValues: {
        ':pk': partitionFrom(qualificationTypes.keys['site-induction'], { org_id: orgId }),
        ':site': `${site.id}#`,
      },
      ProjectionExpression: 'qualification_type',
    }),
  ]);
  const find = (key: { pk: string; sk: string } | null) =>
    (key && records.find((r) => r.pk === key.pk && r.sk === key.sk)) ?? null;
  const rules = find(settingsOfSite);
  const person = find(personKey);
  const specificationId = rules?.rels.required_specification;
  const [specification] =
    typeof specificationId === 'string'
      ? await batchGetInScope(scope, [qualificationSpecifications.keyOf(orgId, specificationId)])
      : [];
  return {
    named,
    siteFound: find(siteKey) !== null,
    personFound: person !== null,
    awards: person ? awardsOf(person) : null,
    rules,
    inductions: inductions.map((entry) => entry.qualification_type),
    specification: specification
      ? { id: specification.id, rule: specification.attributes.rule as Rule }
      : null,
    missingQualification: rules?.attributes.missing_qualification === 'refuse' ? 'refuse' : 'warn',
  };
};

/** POST …/site-attendances: the request names who signs in where; the gate decides; one commit records it. */
export const signIn = defineWrite({
  document: signInDocument,
  facts: async (request: WriteRequest & { principal: Principal }, { data }) => {
    const { orgId, principal, scope } = request;
    const held = principal.permissions.get(orgId);
    const named = namedAt(
      storedRelationships(data.relationships),
      data.attributes.guest,
      data.attributes.override !== undefined,
      held?.has('site-attendances:override') ?? false,
      // Reached by `site-attendances:self` alone (the route's `party`): they sign in only themselves.
      held?.has('site-attendances:manage') ? null : principal,
    );
    const [gate, organisation] = await Promise.all([
      gateFacts(request, named),
      readAheadOr<StoredResource>(scope, [settingsKey(orgId)]),
    ]);
    return { ...gate, timezone: settingsOf(organisation[0] ?? null).timezone };
  },
  decide: ({ orgId, principal, now }, { data }, facts) => {
    const { override, ...given } = data.attributes;
    const kind = given.attendee_kind ?? 'worker';
    const checks = admitted(facts, kind, override !== undefined, now);
    const { site, personId } = facts.named;
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
          ...storedRelationships(data.relationships),
          person: personId,
          ...byPrincipal('signed_in_by', principal, 'signed_in_by'),
        },
      },
      now,
    );
    const closing = String(facts.rules?.attributes.closing_time ?? DEFAULT_CLOSING_TIME);
    const entry = dueEntry(
      AUTO_SIGN_OUT.name,
      orgId,
      draft.id,
      nextClosing(now.getTime(), closing, facts.timezone),
    );
    const attendance: StoredResource = {
      ...draft,
      gsi1pk: onSitePartition(orgId, site.id),
      gsi1sk: draft.id,
      schedule: { pk: entry.pk, sk: entry.sk },
    };
    return { attendance, entry, site: site.id, personId };
  },
  ops: ({ orgId }, { attendance, entry, site, personId }) => {
    const claim = personId
      ? [{ claim: { ...openAttendanceKey(orgId, site, personId), holder_id: attendance.id, org_id: orgId } }]
      : [];
    // Read above, and checked again as the attendance commits: neither may have gone meanwhile.
    const { scheme, location, person } = attendance.rels;
    return {
      ops: [{ create: attendance }, ...claim, dueEntryOp(entry)],
      checks: existenceChecks(siteAttendances, orgId, {
        scheme: scheme ?? null,
        location: location ?? null,
        person: person ?? null,
      }),
      refused: (error) => {
        if (claim.length > 0 && error.op === 1)
          throw new ConflictError('This person is signed in at this site already: sign them out first.');
        throw new ConflictError('The site or the person changed while signing in; try again.');
      },
    };
  },
  answer: ({ attendance }) => attendance,
});
