/** PATCH /v3/hazard-proposals/{id}: the documented alias of POST …/accept and …/reject (the Client decides, once). */
import { decisionAlias } from '../decision-alias';
import { hazardDecisionDocument } from '../pre-construction';
import { hazardProposals } from './definition';

export { hazardDecisionDocument as requestBody } from '../pre-construction';

export const handler = decisionAlias('decideHazardProposal', hazardProposals, hazardDecisionDocument);
