import { cdmHandler } from '../cdm-handler';
import { hazardProposals } from '../definitions';
import { decideHazardProposal } from '../pre-construction';

export { hazardDecisionDocument as requestBody } from '../pre-construction';

/** PATCH /v3/hazard-proposals/{id}: the Client accepts (the hazard is created) or rejects with a reason. */
export const handler = cdmHandler('decideHazardProposal', {
  path: [hazardProposals, 'hazard_proposal_id'],
  write: decideHazardProposal,
});
