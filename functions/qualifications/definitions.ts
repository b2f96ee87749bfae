/**
 * Qualifications (issue 22): the types of qualification an organisation recognises (assessments,
 * training, inductions, registrations), the awards of them to its people, and specifications combining
 * them (`all_of` / `any_of`). Awards' writes and states: `awards.ts`; evaluations: `evaluation.ts`.
 */
import type { Principal } from '#shared/auth/principal';
import { keyFrom } from '#shared/data/access-patterns';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { defineLifecycle, type PartyRule } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/moments';
import type { Check } from '#shared/engine/record-writes';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { ValidationError } from '#shared/jsonapi/errors';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import {
  AWARD_STATUSES,
  type AwardAction,
  type AwardFacts,
  deciderRefusal,
  evidenceRefusals,
  VALIDITY_PERIOD,
} from './rules/awards';
import { type Rule, ruleResultSchema, ruleSchema, typesOf } from './rules/rules';

export const QUALIFICATION_KINDS = ['assessment', 'training', 'induction', 'registration'] as const;

/** Numbers other records' writes keep on a type: its awards and the specifications naming it. */
export const AWARDS_OF_TYPE = 'count#awards';
export const SPECIFICATIONS_OF_TYPE = 'count#specifications';

const countOf = (record: StoredResource, name: string) =>
  Number((record as unknown as Record<string, unknown>)[name] ?? 0);

/**
 * The entry under a site saying an induction type covers it: the gate reads a site's entries with one
 * Query (`begins_with(sk, <site>#)`).
 */
/** Four eyes on a decision (`rules/awards.ts`): the award's own person never approves or rejects it. */
const fourEyes =
  (action: AwardAction): PartyRule =>
  (award, principal) =>
    deciderRefusal(action, String(award.rels.person), principal.kind === 'user' ? principal.id : null);

/** What an award's evidence guard reads (`award-facts.ts`), loaded when its moves are weighed or made. */
const awardFacts = () => import('./award-facts');

/** A decision's writes (`award-moves.ts`), loaded when a move is made, so reads carry none of them. */
const decisionWrites =
  (schedules: boolean) => async (moved: StoredResource, before: StoredResource, context: { now: Date }) =>
    (await import('./award-moves')).decisionWrites(schedules)(moved, before, context);

/** Who decided (approved or rejected) it, and when. */
const decided =
  (action: AwardAction) =>
  (_award: StoredResource, { principal, now }: { principal: Principal | null; now: Date }) => ({
    rels: byPrincipal('verified_by', principal, 'verified_by'),
    meta: { [`${action}_at`]: now.toISOString() },
  });

const siteInductions = {
  ...tenantPattern('site-inductions', '{site_id}#{type_id}'),
  about: "`qualification_type`; moved with the type's `schemes`/`locations`",
};
export const siteInductionKey = (orgId: string, siteId: string, typeId: string) =>
  keyFrom(siteInductions, { org_id: orgId, site_id: siteId, type_id: typeId });

const sitesOf = (record: StoredResource | null): string[] =>
  record
    ? [record.rels.schemes, record.rels.locations].flatMap((ids) => (Array.isArray(ids) ? ids : []))
    : [];

export const qualificationTypes = defineResource({
  type: 'qualification-types',
  tag: 'Qualifications',
  names: { one: 'QualificationType', many: 'QualificationTypes' },
  collectionPath: '/v3/orgs/{org_id}/qualifications/types',
  itemPath: '/v3/qualification-types/{qualification_type_id}',
  permission: 'qualifications',
  endpoints: CRUD,
  writes: async () => {
    const { z, requiredLine, freeText } = await loadSchemaBuilders();
    return {
      attributes: {
        kind: z.enum(QUALIFICATION_KINDS),
        name: requiredLine(200),
        code: requiredLine(50).optional(),
        description: freeText(2000).optional(),
        // Whether its awards expire: each then has an expiry date, given or computed from the period.
        has_expiry: z.boolean(),
        validity_period: z
          .string()
          .regex(VALIDITY_PERIOD, 'must be an ISO 8601 duration of years, months, weeks or days, such as P5Y')
          .nullable()
          .optional(),
        evidence_required: z.boolean().optional(),
      },
      // An induction's sites: the schemes and locations it inducts people to.
      relationships: ['schemes', 'locations'],
      unique: { attribute: 'code', claim: 'code-claim' },
      prepare: (type) => {
        if (type.attributes.kind !== 'induction' && sitesOf(type).length > 0)
          throw new ValidationError({
            detail: 'Only an induction names the sites it covers.',
            source: { pointer: '/data/relationships/schemes' },
          });
        if (!type.attributes.has_expiry && type.attributes.validity_period)
          throw new ValidationError({
            detail: 'A validity period needs has_expiry: true.',
            source: { pointer: '/data/attributes/validity_period' },
          });
        return type;
      },
      keep: (before, after) => {
        const [was, is] = [sitesOf(before), sitesOf(after)];
        const record = (after ?? before) as StoredResource;
        const ops: WriteOp[] = [
          ...was
            .filter((site) => !is.includes(site))
            .map((site) => ({ remove: siteInductionKey(record.org_id, site, record.id) })),
          ...is
            .filter((site) => !was.includes(site))
            .map((site) => ({
              put: {
                ...siteInductionKey(record.org_id, site, record.id),
                org_id: record.org_id,
                qualification_type: record.id,
              },
            })),
        ];
        return { ops };
      },
      guardDelete: (type) => {
        const [awards, specifications] = [
          countOf(type, AWARDS_OF_TYPE),
          countOf(type, SPECIFICATIONS_OF_TYPE),
        ];
        if (awards > 0)
          return `${awards} award(s) are of this type: it stays while they do (revoke rather than delete).`;
        if (specifications > 0)
          return `${specifications} specification(s) name this type: change them first.`;
        return undefined;
      },
    };
  },
  keys: {
    'code-claim': {
      ...tenantPattern('qualification-codes', '{code}'),
      about: '`holder_id`; read by `filter[code]`',
    },
    'site-induction': siteInductions,
    // On gsi2: lsi1 keeps the name sort.
    'filter-kind': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#qualification-types',
      sk: 'kind#{attributes.kind}#{attributes.name:folded}\u0001{id}',
      about:
        "a qualification type under its kind, in name order (the list's sort): `filter[kind]`; types written before issue 42 lack it until migrated",
    },
  },
  relationships: {
    schemes: { type: 'schemes', many: true },
    locations: { type: 'locations', many: true },
  },
  collection: {
    // Every filter indexed: kind (four values, counted) on gsi2, code (unique) by its claim, name on its
    // sort's lsi1, a creation window on the ids.
    filters: {
      kind: { kind: 'eq', path: 'attributes.kind', index: 'filter-kind', counted: true },
      code: { kind: 'eq', path: 'attributes.code', index: 'code-claim', claimed: true },
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['schemes', 'locations'],
  },
  derive: async (_scope, types) =>
    types.map((type) => ({
      ...type,
      meta: {
        ...type.meta,
        awards: countOf(type, AWARDS_OF_TYPE),
        specifications: countOf(type, SPECIFICATIONS_OF_TYPE),
      },
    })),
});

export const qualificationAwards = defineResource({
  type: 'qualification-awards',
  tag: 'Qualifications',
  names: { one: 'QualificationAward', many: 'QualificationAwards' },
  collectionPath: '/v3/orgs/{org_id}/qualifications/awards',
  itemPath: '/v3/qualification-awards/{qualification_award_id}',
  permission: 'qualifications',
  endpoints: {
    list: true,
    get: true,
    create: 'functions/qualifications/create-award.ts',
    update: 'functions/qualifications/update-award.ts',
    delete: 'functions/qualifications/delete-award.ts',
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      status: z.enum(AWARD_STATUSES),
      issued_at: z.iso.date(),
      expires_at: z.iso.date().nullable().describe('Null for a type without expiry.'),
      number: z.string().nullable(),
      notes: z.string().nullable(),
    };
  },
  relationships: {
    person: { type: 'users' },
    qualification_type: { type: 'qualification-types' },
    evidence: { type: 'folders' },
    verified_by: { type: 'users' },
    verified_by_service_account: { type: 'service-accounts' },
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  keys: {
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#qualification-awards',
      sk: 'status#{attributes.status}#{id}',
      about:
        'an award under its status, in creation order: `filter[status]`; awards written before issue 42 lack it until migrated',
    },
    'filter-qualification-type': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#qualification-awards',
      sk: 'qualification_type#{rels.qualification_type}#{id}',
      about:
        'an award under its qualification type, in creation order: `filter[qualification_type]`; awards written before issue 42 lack it until migrated',
    },
    'filter-person': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#qualification-awards',
      sk: 'person#{rels.person}#{id}',
      about:
        'an award under its person, in creation order, in its own partition (no new index): `filter[person]`; awards written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // A 50,000-worker organisation holds hundreds of thousands: every filter but `number` is indexed, and
    // `number` (a certificate's, not unique) narrows one of them, usually its type (docs/api.md).
    filters: {
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      person: { kind: 'eq', path: 'rels.person', index: 'filter-person' },
      qualification_type: { kind: 'eq', path: 'rels.qualification_type', index: 'filter-qualification-type' },
      number: { kind: 'eq', path: 'attributes.number' },
      expires_at: { kind: 'time', path: 'attributes.expires_at', index: 'sort-expires_at' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { expires_at: { path: 'attributes.expires_at', index: 'lsi1' } },
    defaultSort: '-created_at',
    includes: ['person', 'qualification_type', 'evidence', 'verified_by'],
  },
  // Expiry is the schedule's (awards.ts, `warnOfExpiry`), not a move anyone asks for.
  events: ['expiring', 'expired'],
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: AWARD_STATUSES,
    noun: 'award',
    facts: async (scope, award) =>
      (await awardFacts()).readAwardFacts(scope, award, qualificationTypes.keyOf),
    transitions: {
      approve: {
        from: ['pending_approval'],
        to: 'valid',
        event: 'approved',
        permission: 'qualifications:approve',
        parties: [fourEyes('approved')],
        guards: [(_award, facts: AwardFacts) => evidenceRefusals(facts)],
        changes: decided('approved'),
        writes: decisionWrites(true),
      },
      reject: {
        from: ['pending_approval'],
        to: 'rejected',
        event: 'rejected',
        permission: 'qualifications:approve',
        parties: [fourEyes('rejected')],
        changes: decided('rejected'),
        writes: decisionWrites(false),
      },
      revoke: {
        from: ['valid', 'expired'],
        to: 'revoked',
        event: 'revoked',
        // A revocation is the audit log's to tell, not the verifier's.
        changes: (_award, { now }) => ({ meta: { revoked_at: now.toISOString() } }),
        writes: decisionWrites(false),
      },
    },
  }),
});

/**
 * Numbers other records' writes keep on a specification: the job roles and the sites' settings naming it
 * as the one they require (`required_specification`, `countOnNamed`), so it stays while named.
 */
export const JOB_ROLES_REQUIRING = 'count#job-roles';
export const SITE_SETTINGS_REQUIRING = 'count#site-settings';

/** Why a specification may not go: what requires it, by kind, or undefined. */
const requiredBy = (specification: StoredResource): string | undefined => {
  const [roles, sites] = [
    countOf(specification, JOB_ROLES_REQUIRING),
    countOf(specification, SITE_SETTINGS_REQUIRING),
  ];
  const named = [
    ...(roles > 0 ? [`${roles} job role${roles === 1 ? '' : 's'}`] : []),
    ...(sites > 0 ? [`the settings of ${sites} site${sites === 1 ? '' : 's'}`] : []),
  ];
  return named.length > 0
    ? `This specification is required (required_specification) by ${named.join(' and ')}: change or clear them first.`
    : undefined;
};

/** Each type a specification's rule names is counted on the type: it must exist, and stays while named. */
const typeCounts = (before: StoredResource | null, after: StoredResource | null): Check[] => {
  const types = (record: StoredResource | null) => (record ? typesOf(record.attributes.rule as Rule) : []);
  const [was, is] = [types(before), types(after)];
  const record = (after ?? before) as StoredResource;
  const move = (type: string, by: number): Check => ({
    op: {
      keep: { key: qualificationTypes.keyOf(record.org_id, type), add: { [SPECIFICATIONS_OF_TYPE]: by } },
    },
    pointer: '/data/attributes/rule',
  });
  return [
    ...was.filter((type) => !is.includes(type)).map((type) => move(type, -1)),
    ...is.filter((type) => !was.includes(type)).map((type) => move(type, 1)),
  ];
};

export const qualificationSpecifications = defineResource({
  type: 'qualification-specifications',
  tag: 'Qualifications',
  names: { one: 'QualificationSpecification', many: 'QualificationSpecifications' },
  collectionPath: '/v3/orgs/{org_id}/qualifications/specifications',
  itemPath: '/v3/qualification-specifications/{qualification_specification_id}',
  permission: 'qualifications',
  endpoints: CRUD,
  writes: async () => {
    const { z, requiredLine, freeText } = await loadSchemaBuilders();
    return {
      attributes: {
        name: requiredLine(200),
        code: requiredLine(50).optional(),
        description: freeText(2000).optional(),
        rule: ruleSchema(z),
      },
      unique: { attribute: 'code', claim: 'code-claim' },
      keep: (before, after) => ({ checks: typeCounts(before, after) }),
      guardDelete: requiredBy,
    };
  },
  keys: {
    'code-claim': {
      ...tenantPattern('qualification-specification-codes', '{code}'),
      about: '`holder_id`; read by `filter[code]`',
    },
  },
  collection: {
    // Every filter indexed: name on its sort's lsi1, code (unique) by its claim, a creation window on the ids.
    filters: {
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      code: { kind: 'eq', path: 'attributes.code', index: 'code-claim', claimed: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
  // `meta.job_roles`, `meta.site_settings`: how many of each require it, from its own record.
  derive: async (_scope, specifications) =>
    specifications.map((specification) => ({
      ...specification,
      meta: {
        ...specification.meta,
        job_roles: countOf(specification, JOB_ROLES_REQUIRING),
        site_settings: countOf(specification, SITE_SETTINGS_REQUIRING),
      },
    })),
});

/**
 * One person measured against a specification on one day (GET …/evaluation): computed, never stored, so
 * it has no path of its own.
 */
export const qualificationEvaluations = defineResource({
  type: 'qualification-evaluations',
  tag: 'Qualifications',
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      on: z.iso.date().describe('The day evaluated.'),
      met: z.boolean(),
      rule: ruleResultSchema(z).describe(
        "The specification's rule, each part met or not, with the awards proving it.",
      ),
    };
  },
  relationships: {
    organisation: false,
    person: { type: 'users' },
    specification: { type: 'qualification-specifications' },
  },
  events: false,
});
