import { cdmHandler } from '../cdm-handler';
import { planRisks } from '../definitions';
import { deleteRisk } from '../plans';

/** DELETE /v3/construction-phase-plan-risks/{risk_id}: before handover, by the Principal Contractor; 204. */
export const handler = cdmHandler('deletePlanRisk', {
  path: [planRisks, 'risk_id'],
  write: async (input) => {
    await deleteRisk(input);
    return undefined;
  },
});
