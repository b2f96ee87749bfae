import { cdmHandler } from '../cdm-handler';
import { preConstructionInformation } from '../definitions';
import { createHazardProposal, proposalDocuments } from '../pre-construction';
import { hazardProposals } from './definition';

/** POST /v3/pre-construction-information/{id}/hazard-proposals: any appointed duty holder proposes a hazard. */
export const handler = cdmHandler('createHazardProposal', {
  path: [preConstructionInformation, 'pre_construction_information_id'],
  write: createHazardProposal,
  answer: hazardProposals,
  created: true,
});

export const requestBody = proposalDocuments.create;
