import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { hazardProposals } from '#shared/resources/cdm/definitions';
import { decideHazardProposal } from '#shared/resources/cdm/pre-construction';

export { hazardDecisionDocument as requestBody } from '#shared/resources/cdm/pre-construction';

/** PATCH /v3/hazard-proposals/{id}: the Client accepts (the hazard is created) or rejects with a reason. */
export const handler = cdmHandler('decideHazardProposal', {
  path: [hazardProposals, 'hazard_proposal_id'],
  write: decideHazardProposal,
});
