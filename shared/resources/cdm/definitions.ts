/**
 * CDM 2015 records of a scheme: duty-holder appointments, the pre-construction information pack with its
 * site hazards and hazard proposals, and the construction phase plan with its risks, versions and
 * proposed changes. Lists that grow without bound over a project (appointments, proposals, versions,
 * changes) are filed on `gsi1` under their parent; a pack's hazards and a plan's risks are listed on the
 * parent itself, so completeness checks read them consistently.
 */
import type { CollectionOptions } from '../../jsonapi/collection-query';
import { createdAtSort, defineResource } from '../resource-definition';

const status = { status: { kind: 'eq', path: 'attributes.status' } } as const;
const byCreation = (filters: CollectionOptions['filters'], includes: string[] = []): CollectionOptions => ({
  filters: { ...filters, created_at: { kind: 'time', path: 'meta.created_at' } },
  sorts: createdAtSort,
  defaultSort: 'created_at',
  includes,
});
const author = {
  created_by_user: { type: 'users' },
  created_by_service_account: { type: 'service-accounts' },
} as const;
const decider = {
  decided_by_user: { type: 'users' },
  decided_by_service_account: { type: 'service-accounts' },
} as const;

export const appointments = defineResource({
  type: 'appointments',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    user: { type: 'users' },
    team: { type: 'teams' },
    service_account: { type: 'service-accounts' },
    appointed_organisation: { type: 'organisations' },
    ...author,
    ended_by_user: { type: 'users' },
    ended_by_service_account: { type: 'service-accounts' },
  },
  self: 'getAppointment',
  collection: byCreation({ ...status, role: { kind: 'eq', path: 'attributes.role' } }, [
    'user',
    'team',
    'service_account',
  ]),
});

export const preConstructionInformation = defineResource({
  type: 'pre-construction-information',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    site_hazards: { type: 'site-hazards', many: true },
    ...author,
  },
  self: 'getPreConstructionInformation',
  collection: byCreation({ scheme: { kind: 'eq', path: 'rels.scheme' } }, ['scheme', 'site_hazards']),
});

export const siteHazards = defineResource({
  type: 'site-hazards',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    hazard_proposal: { type: 'hazard-proposals' },
    ...author,
  },
  self: 'getSiteHazard',
  collection: byCreation({ ...status, severity: { kind: 'eq', path: 'attributes.severity' } }),
});

export const hazardProposals = defineResource({
  type: 'hazard-proposals',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    site_hazard: { type: 'site-hazards' },
    ...author,
    ...decider,
  },
  self: 'getHazardProposal',
  collection: byCreation(status, ['site_hazard']),
});

export const constructionPhasePlans = defineResource({
  type: 'construction-phase-plans',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    risks: { type: 'construction-phase-plan-risks', many: true },
    ...author,
    handed_over_by_user: { type: 'users' },
    handed_over_by_service_account: { type: 'service-accounts' },
  },
  self: 'getConstructionPhasePlan',
  collection: byCreation({ ...status, scheme: { kind: 'eq', path: 'rels.scheme' } }, [
    'scheme',
    'pre_construction_information',
    'risks',
    'risks.hazard',
  ]),
});

export const planRisks = defineResource({
  type: 'construction-phase-plan-risks',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    hazard: { type: 'site-hazards' },
  },
  self: 'getPlanRisk',
  collection: byCreation({ residual_risk: { kind: 'eq', path: 'attributes.residual_risk' } }, ['hazard']),
});

export const planVersions = defineResource({
  type: 'construction-phase-plan-versions',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    proposed_change: { type: 'construction-phase-plan-proposed-changes' },
    ...author,
  },
  self: 'getConstructionPhasePlanVersion',
  collection: byCreation({ section: { kind: 'eq', path: 'attributes.section' } }),
});

export const proposedChanges = defineResource({
  type: 'construction-phase-plan-proposed-changes',
  relationships: {
    organisation: { type: 'organisations' },
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    risk: { type: 'construction-phase-plan-risks' },
    hazard: { type: 'site-hazards' },
    hazard_proposal: { type: 'hazard-proposals' },
    proposed_by_user: { type: 'users' },
    proposed_by_service_account: { type: 'service-accounts' },
    ...decider,
  },
  self: 'getProposedChange',
  collection: byCreation({ ...status, section: { kind: 'eq', path: 'attributes.section' } }, [
    'risk',
    'hazard',
    'hazard_proposal',
  ]),
});

/**
 * A scheme's CDM file (not served): its active appointments and its one pack and one plan, in one item
 * keyed by the scheme, so a write reads the caller's roles with one strongly consistent GetItem and a
 * second pack or plan is refused by the file's version check.
 */
export const cdmFiles = defineResource({
  type: 'scheme-cdm-files',
  relationships: {},
  self: null,
});
