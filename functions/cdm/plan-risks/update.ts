import { cdmHandler } from '../cdm-handler';
import { planRisks } from '../definitions';
import { riskDocuments, updateRisk } from '../plans';

/** PATCH /v3/construction-phase-plan-risks/{risk_id}: before handover, by the Principal Contractor. */
export const handler = cdmHandler('updatePlanRisk', { path: [planRisks, 'risk_id'], write: updateRisk });

export const requestBody = riskDocuments.update;
