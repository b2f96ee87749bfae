import { getHandler } from '#shared/http/crud-handlers';
import { hazardProposals } from '#shared/resources/cdm/definitions';

/** GET /v3/hazard-proposals/{hazard_proposal_id} */
export const handler = getHandler('getHazardProposal', hazardProposals, 'hazard_proposal_id');
