import { defineArea } from '../area';
import {
  appointments,
  constructionPhasePlans,
  hazardProposals,
  planRisks,
  planVersions,
  preConstructionInformation,
  proposedChanges,
  siteHazards,
} from './definitions';

export const area = defineArea('cdm', {
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
      permission: 'appointments:manage',
    },
    {
      id: 'createPreConstructionInformation',
      method: 'POST',
      path: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}/pre-construction-information',
      handler: 'functions/cdm/pre-construction-information/create.ts',
      permission: 'pre-construction-information:manage',
    },
    {
      id: 'decideHazardProposal',
      method: 'PATCH',
      path: '/v3/hazard-proposals/{hazard_proposal_id}',
      handler: 'functions/cdm/hazard-proposals/decide.ts',
      permission: 'pre-construction-information:manage',
    },
    {
      id: 'createConstructionPhasePlan',
      method: 'POST',
      path: '/v3/orgs/{org_id}/projects/schemes/{scheme_id}/construction-phase-plan',
      handler: 'functions/cdm/construction-phase-plans/create.ts',
      permission: 'construction-phase-plans:manage',
    },
    {
      id: 'handOverConstructionPhasePlan',
      method: 'POST',
      path: '/v3/construction-phase-plans/{construction_phase_plan_id}/handover',
      handler: 'functions/cdm/construction-phase-plans/hand-over.ts',
      permission: 'construction-phase-plans:manage',
    },
    {
      id: 'decideProposedChange',
      method: 'PATCH',
      path: '/v3/construction-phase-plan-proposed-changes/{proposed_change_id}',
      handler: 'functions/cdm/proposed-changes/decide.ts',
      permission: 'construction-phase-plans:manage',
    },
  ],
});
