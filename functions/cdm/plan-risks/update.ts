import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { planRisks } from '#shared/resources/cdm/definitions';
import { riskDocuments, updateRisk } from '#shared/resources/cdm/plans';

/** PATCH /v3/construction-phase-plan-risks/{risk_id}: before handover, by the Principal Contractor. */
export const handler = cdmHandler('updatePlanRisk', { path: [planRisks, 'risk_id'], write: updateRisk });

export const requestBody = riskDocuments.update;
