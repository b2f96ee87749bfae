import { cdmHandler } from '#shared/resources/cdm/cdm-handler';
import { hazardProposals, preConstructionInformation } from '#shared/resources/cdm/definitions';
import { createHazardProposal, proposalDocuments } from '#shared/resources/cdm/pre-construction';

/** POST /v3/pre-construction-information/{id}/hazard-proposals: any appointed duty holder proposes a hazard. */
export const handler = cdmHandler('createHazardProposal', {
  path: [preConstructionInformation, 'pre_construction_information_id'],
  write: createHazardProposal,
  answer: hazardProposals,
  created: true,
});

export const requestBody = proposalDocuments.create;
