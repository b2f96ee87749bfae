/** A body for each of the cdm area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { one, type RequestExamples } from '#shared/engine/examples';

/** A plan or pack section: its text. */
const section = (text: string) => ({ text });

export const examples: RequestExamples = {
  createAppointment: (i) => ({
    data: {
      type: 'appointments',
      attributes: { role: 'designer' },
      relationships: { service_account: one('service-accounts', i.outsider) },
    },
  }),
  endAppointment: (i) => ({
    data: { type: 'appointments', id: i.appointment_id, attributes: { status: 'ended', end_reason: 'Done' } },
  }),
  createPreConstructionInformation: () => ({ data: { type: 'pre-construction-information' } }),
  updatePreConstructionInformation: (i) => ({
    data: {
      type: 'pre-construction-information',
      id: i.pre_construction_information_id,
      attributes: { sections: { project_description: section('Replace the outlet valve.') } },
    },
  }),
  createSiteHazard: () => ({
    data: { type: 'site-hazards', attributes: { title: 'Live cable', severity: 'high', location: 'Tower' } },
  }),
  updateSiteHazard: (i) => ({
    data: {
      type: 'site-hazards',
      id: i.site_hazard_id,
      attributes: { status: 'retired', retired_reason: 'Safe' },
    },
  }),
  createHazardProposal: () => ({
    data: { type: 'hazard-proposals', attributes: { title: 'Silt', severity: 'medium', reason: 'Survey' } },
  }),
  decideHazardProposal: (i) => ({
    data: {
      type: 'hazard-proposals',
      id: i.hazard_proposal_id,
      attributes: { status: 'rejected', decision_reason: 'Not a hazard' },
    },
  }),
  acceptHazardProposal: null,
  rejectHazardProposal: () => ({
    data: { type: 'hazard-proposals', attributes: { decision_reason: 'Covered by the ground survey' } },
  }),
  createConstructionPhasePlan: () => ({ data: { type: 'construction-phase-plans' } }),
  updateConstructionPhasePlan: (i) => ({
    data: {
      type: 'construction-phase-plans',
      id: i.construction_phase_plan_id,
      attributes: { sections: { welfare: section('Two cabins.') } },
    },
  }),
  createPlanRisk: (i) => ({
    data: {
      type: 'construction-phase-plan-risks',
      attributes: { title: 'Trench support', control_measures: ['Shoring'], residual_risk: 'low' },
      relationships: { hazard: one('site-hazards', i.site_hazard_id) },
    },
  }),
  updatePlanRisk: (i) => ({
    data: { type: 'construction-phase-plan-risks', id: i.risk_id, attributes: { title: 'Trench shoring' } },
  }),
  createProposedChange: (i) => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: {
        reason: 'Control the silt',
        section: 'risks',
        operation: 'create',
        proposed: { risk: { title: 'Silt removal', control_measures: ['Curtain'], residual_risk: 'medium' } },
      },
      relationships: { hazard_proposal: one('hazard-proposals', i.hazard_proposal_id) },
    },
  }),
  decideProposedChange: (i) => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      id: i.proposed_change_id,
      attributes: { status: 'rejected', decision_reason: 'Already decided' },
    },
  }),
  handOverConstructionPhasePlan: null,
  acceptProposedChange: () => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: { decision_reason: 'Agreed at the site meeting' },
    },
  }),
  rejectProposedChange: () => ({
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: { decision_reason: 'Covered by the existing method statement' },
    },
  }),
};
