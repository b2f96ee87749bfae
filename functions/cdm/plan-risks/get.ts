import { getHandler } from '#shared/http/crud-handlers';
import { planRisks } from '#shared/resources/cdm/definitions';

/** GET /v3/construction-phase-plan-risks/{risk_id} */
export const handler = getHandler('getPlanRisk', planRisks, 'risk_id');
