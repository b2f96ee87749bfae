/**
 * The site sign-in's decision (pure): what the request names (a site, a person or a guest, an override
 * only by who may give one), then, from what was read, whether the gate lets them in and the attendance
 * that records it. The write module reads and commits (`sign-in-writes.ts`).
 */

import type { AwardEntry } from '#functions/qualifications/rules/awards';
import { dayOf } from '#functions/qualifications/rules/awards';
import type { Rule } from '#functions/qualifications/rules/rules';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { type GateChecks, gateChecks, notChecked } from './gate';
import { type Caller, notThePerson } from './self';

const problem = (pointer: string, detail: string) => new ValidationError({ detail, source: { pointer } });

/** Who signs in where, as the request names them. */
export interface Named {
  site: { id: string; isScheme: boolean };
  personId: string | null;
}

/**
 * The site a request names, and its person or guest; an override needs the permission to give one. A
 * caller signing in only as themselves (`asSelf`: without `site-attendances:manage`) names themselves.
 */
export const namedAt = (
  rels: Record<string, unknown>,
  guest: unknown,
  overriding: boolean,
  mayOverride: boolean,
  asSelf: Caller | null = null,
): Named => {
  // Who may, first: a worker signing themselves in learns nothing of anyone else's sign-in.
  const notSelf = asSelf && notThePerson(rels.person, asSelf, 'in');
  if (notSelf) throw new ForbiddenError(notSelf);
  const { scheme, location } = rels;
  const siteId = typeof scheme === 'string' ? scheme : typeof location === 'string' ? location : null;
  if (!siteId || (scheme && location))
    throw problem('/data/relationships', 'An attendance names its site: a scheme or a location, not both.');
  const personId = typeof rels.person === 'string' ? rels.person : null;
  if (!personId && !guest)
    throw problem(
      '/data/attributes/guest',
      'Someone without an account signs in as a guest: give their name.',
    );
  if (overriding && !mayOverride)
    throw new ForbiddenError('Overriding the gate needs the site-attendances:override permission.');
  return { site: { id: siteId, isScheme: typeof scheme === 'string' }, personId };
};

/** What the gate read: whether the site and person exist, and what the site requires of whom. */
export interface GateFacts {
  named: Named;
  siteFound: boolean;
  /** The person's awards; null when the request names no person, or one that was not found. */
  awards: readonly AwardEntry[] | null;
  personFound: boolean;
  inductions: string[];
  specification: { id: string; rule: Rule } | null;
  missingQualification: 'refuse' | 'warn';
}

/** The 409 a refusal is: what is missing, and how to get in anyway. */
const refusal = (checks: GateChecks) =>
  new ConflictError(
    `Refused at the gate: missing ${checks.missing.join('; ')}. A manager holding site-attendances:override may sign them in with a reason.`,
  );

/** The gate's checks of a sign-in at `now`, or the 400 or 409 that refuses it. */
export const admitted = (
  facts: GateFacts,
  kind: 'worker' | 'visitor',
  overridden: boolean,
  now: Date,
): GateChecks => {
  const { named } = facts;
  if (!facts.siteFound)
    throw problem(
      `/data/relationships/${named.site.isScheme ? 'scheme' : 'location'}/data`,
      'No such site in this organisation.',
    );
  if (named.personId && !facts.personFound)
    throw problem('/data/relationships/person/data', 'No such user in this organisation.');
  const day = dayOf(now.getTime());
  const checks =
    kind === 'visitor'
      ? notChecked(day)
      : gateChecks(
          {
            inductions: facts.inductions,
            specification: facts.specification,
            missingQualification: facts.missingQualification,
          },
          facts.awards,
          day,
          overridden,
        );
  if (checks.outcome === 'refused') throw refusal(checks);
  return checks;
};
