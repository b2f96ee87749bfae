/**
 * CDM 2015 records of a scheme: duty-holder appointments, the pre-construction information pack with its
 * site hazards and hazard proposals, and the construction phase plan with its risks, versions and
 * proposed changes. Lists that grow without bound over a project (appointments, proposals, versions,
 * changes) are filed on `gsi1` under their parent; a pack's hazards and a plan's risks are listed on the
 * parent itself, so completeness checks read them consistently. The plan, its proposed changes and hazard
 * proposals, which have a life, are declared beside their moves (`construction-phase-plans/definition.ts`,
 * `proposed-changes/definition.ts`, `hazard-proposals/definition.ts`), so what the moves read and write can
 * use the declarations here.
 */

import { signedIn } from '#shared/auth/signed-in';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/moments';
import { type CollectionDeclaration, defineResource } from '#shared/engine/resource-definition';
import type { CollectionOptions } from '#shared/jsonapi/collection-query';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { preConstructionSections } from './rules/documents';
import { dutyRoles } from './rules/duty-holders';

export const status = { status: { kind: 'eq', path: 'attributes.status' } } as const;
export const byCreation = (
  filters: CollectionOptions['filters'],
  includes: string[] = [],
): CollectionDeclaration => ({
  filters,
  defaultSort: 'created_at',
  includes,
});
export const author = {
  created_by_user: { type: 'users' },
  created_by_service_account: { type: 'service-accounts' },
} as const;
export const decider = {
  decided_by_user: { type: 'users' },
  decided_by_service_account: { type: 'service-accounts' },
} as const;

// Read shapes: a document's sections are all present, each its content or null until written.
export const sectionsOf = async (names: readonly string[]) => {
  const { z } = await loadSchemaBuilders();
  const sectionContent = () => z.strictObject({ text: z.string(), items: z.array(z.string()).optional() });
  return z.strictObject(Object.fromEntries(names.map((name) => [name, sectionContent().nullable()])));
};
export const decision = async () => {
  const { z, instant } = await loadSchemaBuilders();
  return { decision_reason: z.string().nullable(), decided_at: instant().nullable() };
};

/** A decision's document (`POST …/accept`, `…/reject`): the reason, which a rejection must give. */
export const decisionInput = (type: string, reason: 'required' | 'optional') => async () => {
  const { z, requiredText } = await loadSchemaBuilders();
  const decisionReason = requiredText(5000);
  const document = z.strictObject({
    data: z.strictObject({
      type: z.literal(type),
      attributes: z.strictObject({
        decision_reason: reason === 'required' ? decisionReason : decisionReason.optional(),
      }),
    }),
  });
  // An acceptance may come with no body at all.
  return reason === 'required' ? document : document.optional();
};

/** A decision's changes beside its state: who decided, when and (a rejection always) why. */
export const decided = (_record: StoredResource, { principal, now, input }: MoveContext) => ({
  attributes: {
    decision_reason:
      (input as { data?: { attributes?: { decision_reason?: string } } } | undefined)?.data?.attributes
        ?.decision_reason ?? null,
    decided_at: now.toISOString(),
  },
  rels: byPrincipal('decided_by', signedIn(principal)),
});

export const hazard = async () => {
  const { z } = await loadSchemaBuilders();
  return {
    title: z.string(),
    description: z.string().optional(),
    location: z.string().optional(),
    severity: z.enum(['low', 'medium', 'high']),
  };
};
export const PLAN_STATUSES = ['draft', 'handed_over'] as const;

export const appointments = defineResource({
  type: 'appointments',
  events: ['ended'],
  tag: 'Construction Phase Plans',
  names: { one: 'Appointment', many: 'Appointments' },
  collectionPath: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}/appointments',
  itemPath: '/v3/appointments/{appointment_id}',
  permission: 'appointments',
  endpoints: {
    list: 'functions/cdm/appointments/list.ts',
    get: true,
    create: 'functions/cdm/appointments/create.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      role: z.enum(dutyRoles),
      status: z.enum(['active', 'ended']),
      starts_at: instant(),
      ended_at: instant().nullable(),
      end_reason: z.string().nullable(),
      notes: z.string().nullable(),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    user: { type: 'users' },
    team: { type: 'teams' },
    service_account: { type: 'service-accounts' },
    appointed_organisation: { type: 'organisations' },
    ...author,
    ended_by_user: { type: 'users' },
    ended_by_service_account: { type: 'service-accounts' },
  },
  collection: byCreation({ ...status, role: { kind: 'eq', path: 'attributes.role' } }, [
    'user',
    'team',
    'service_account',
  ]),
});

export const preConstructionInformation = defineResource({
  type: 'pre-construction-information',
  tag: 'Pre-Construction Information',
  names: { one: 'PreConstructionInformation', many: 'PreConstructionInformation' },
  collectionPath: '/v3/pre-construction-information',
  itemPath: '/v3/pre-construction-information/{pre_construction_information_id}',
  permission: 'pre-construction-information',
  endpoints: { list: true, get: true, update: 'functions/cdm/pre-construction-information/update.ts' },
  served: async () => ({ sections: await sectionsOf(Object.keys(preConstructionSections)) }),
  relationships: {
    scheme: { type: 'schemes' },
    site_hazards: { type: 'site-hazards', many: true },
    ...author,
  },
  collection: byCreation({ scheme: { kind: 'eq', path: 'rels.scheme' } }, ['scheme', 'site_hazards']),
});

export const siteHazards = defineResource({
  type: 'site-hazards',
  tag: 'Pre-Construction Information',
  names: { one: 'SiteHazard', many: 'SiteHazards' },
  collectionPath: '/v3/pre-construction-information/{pre_construction_information_id}/site-hazards',
  itemPath: '/v3/site-hazards/{site_hazard_id}',
  permission: 'pre-construction-information',
  endpoints: {
    list: 'functions/cdm/site-hazards/list.ts',
    get: true,
    create: 'functions/cdm/site-hazards/create.ts',
    update: 'functions/cdm/site-hazards/update.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      ...(await hazard()),
      status: z.enum(['active', 'retired']),
      retired_at: instant().nullable(),
      retired_reason: z.string().optional(),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    hazard_proposal: { type: 'hazard-proposals' },
    ...author,
  },
  // A pack's hazards are listed under it, so each filter's entry is per pack (hazards grow with the sites):
  // a status or a severity as a local index prefix, counted on the pack's children counter (an offset
  // page's total), a window on the pack's `gsi2` ids. A retirement moves the status entry and its count in
  // the hazard's own write.
  keys: {
    'filter-status': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#site-hazards',
      sk: 'pack#{rels.pre_construction_information}#status#{attributes.status}#{id}',
      about:
        "a pack's site hazard under its status, in creation order: `filter[status]`; hazards written before issue 42 lack it until migrated",
    },
    'filter-severity': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#site-hazards',
      sk: 'pack#{rels.pre_construction_information}#severity#{attributes.severity}#{id}',
      about:
        "a pack's site hazard under its severity, in creation order: `filter[severity]`; hazards written before issue 42 lack it until migrated",
    },
    'filter-pack-created': {
      index: 'gsi2',
      pk: 'SITE-HAZARDS#{org_id}#{rels.pre_construction_information}',
      sk: '{id}',
      about:
        "a pack's site hazard by id (creation order): `filter[created_at.since/until]`; hazards written before issue 42 lack it until migrated",
    },
  },
  collection: byCreation({
    status: { ...status.status, index: 'filter-status', counted: true },
    severity: { kind: 'eq', path: 'attributes.severity', index: 'filter-severity', counted: true },
    created_at: { kind: 'time', path: 'meta.created_at', index: 'filter-pack-created' },
  }),
});

export const planRisks = defineResource({
  type: 'construction-phase-plan-risks',
  names: { one: 'PlanRisk', many: 'PlanRisks' },
  collectionPath: '/v3/construction-phase-plans/{construction_phase_plan_id}/risks',
  itemPath: '/v3/construction-phase-plan-risks/{risk_id}',
  permission: 'construction-phase-plans',
  endpoints: {
    list: 'functions/cdm/plan-risks/list.ts',
    get: true,
    create: 'functions/cdm/plan-risks/create.ts',
    update: 'functions/cdm/plan-risks/update.ts',
    delete: 'functions/cdm/plan-risks/delete.ts',
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      title: z.string(),
      control_measures: z.array(z.string()),
      residual_risk: z.enum(['low', 'medium', 'high']),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    hazard: { type: 'site-hazards' },
  },
  collection: byCreation({ residual_risk: { kind: 'eq', path: 'attributes.residual_risk' } }, ['hazard']),
});

export const planVersions = defineResource({
  type: 'construction-phase-plan-versions',
  names: { one: 'ConstructionPhasePlanVersion', many: 'ConstructionPhasePlanVersions' },
  collectionPath: '/v3/construction-phase-plans/{construction_phase_plan_id}/versions',
  itemPath: '/v3/construction-phase-plan-versions/{plan_version_id}',
  permission: 'construction-phase-plans',
  endpoints: { list: 'functions/cdm/construction-phase-plans/list-versions.ts', get: true },
  served: async () => {
    const { z, jsonObject } = await loadSchemaBuilders();
    return {
      version: z.number().int().describe("The plan's version this entry made."),
      status: z.enum(PLAN_STATUSES),
      sections: z.array(z.string()).describe('The sections the change wrote.'),
      operation: z.enum(['create', 'replace', 'update', 'delete', 'handover']),
      content: jsonObject().nullable().describe('What the change wrote: sections, or a risk and its id.'),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    proposed_change: { type: 'construction-phase-plan-proposed-changes' },
    ...author,
  },
  collection: byCreation({ section: { kind: 'eq', path: 'attributes.section' } }),
});

/**
 * A scheme's CDM file (not served): its active appointments and its one pack and one plan, in one item
 * keyed by the scheme, so a write reads the caller's roles with one strongly consistent GetItem and a
 * second pack or plan is refused by the file's version check.
 */
export const cdmFiles = defineResource({
  type: 'scheme-cdm-files',
  events: false,
  relationships: { organisation: false },
});
