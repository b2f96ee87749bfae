import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { constructionPhasePlans } from './construction-phase-plans/definition';
import {
  appointments,
  planRisks,
  planVersions,
  preConstructionInformation,
  siteHazards,
} from './definitions';
import { hazardProposals } from './hazard-proposals/definition';
import { proposedChanges } from './proposed-changes/definition';

export const area = defineArea('cdm', {
  tag: 'Construction Phase Plans',
  feature: {
    description:
      'CDM 2015: pre-construction information, construction phase plans, duty holders and proposed changes.',
  },
  permissions: {
    'appointments:view': 'See who is appointed to which CDM duty-holder role on schemes, and the history.',
    'appointments:manage':
      'Appoint duty holders to schemes and end appointments (once a scheme has a Client, only the Client).',
    'pre-construction-information:view':
      'See pre-construction information, site hazards and hazard proposals.',
    'pre-construction-information:manage':
      'Write pre-construction information, site hazards and hazard proposals, in the duty-holder role each needs.',
    'construction-phase-plans:view':
      'See construction phase plans, their risks, versions and proposed changes.',
    'construction-phase-plans:manage':
      'Write construction phase plans and risks, hand plans over, and propose and decide changes, in the duty-holder role each needs.',
  },
  migrations: [
    // The next free number on its branch; renumbered at merge (the runner refuses a gap or a repeat).
    migration(27, 'site-hazard-filter-index', {
      module: 'functions/cdm/migrations/site-hazard-filter-index.ts',
      step: 'siteHazardFilterIndex',
    }),
  ],
  resources: [
    appointments,
    preConstructionInformation,
    siteHazards,
    hazardProposals,
    constructionPhasePlans,
    planRisks,
    planVersions,
    proposedChanges,
  ],
  routes: [
    {
      id: 'endAppointment',
      method: 'PATCH',
      path: '/v3/appointments/{appointment_id}',
      handler: 'functions/cdm/appointments/end.ts',
      answers: { status: 200, resource: 'appointments' },
      permission: 'appointments:manage',
    },
    {
      id: 'createPreConstructionInformation',
      method: 'POST',
      path: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}/pre-construction-information',
      handler: 'functions/cdm/pre-construction-information/create.ts',
      answers: { status: 201, resource: 'pre-construction-information' },
      tag: 'Pre-Construction Information',
      permission: 'pre-construction-information:manage',
    },
    {
      id: 'decideHazardProposal',
      method: 'PATCH',
      path: '/v3/hazard-proposals/{hazard_proposal_id}',
      handler: 'functions/cdm/hazard-proposals/decide.ts',
      answers: { status: 200, resource: 'hazard-proposals' },
      tag: 'Pre-Construction Information',
      permission: 'pre-construction-information:manage',
    },
    {
      id: 'createConstructionPhasePlan',
      method: 'POST',
      path: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}/construction-phase-plan',
      handler: 'functions/cdm/construction-phase-plans/create.ts',
      answers: { status: 201, resource: 'construction-phase-plans' },
      permission: 'construction-phase-plans:manage',
    },
    {
      // The documented alias of POST …/accept and …/reject (the declared machine's moves).
      id: 'decideProposedChange',
      method: 'PATCH',
      path: '/v3/construction-phase-plan-proposed-changes/{proposed_change_id}',
      handler: 'functions/cdm/proposed-changes/decide.ts',
      answers: { status: 200, resource: 'construction-phase-plan-proposed-changes' },
      permission: 'construction-phase-plans:manage',
    },
  ],
});
