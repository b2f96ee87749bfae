/**
 * PATCH /v3/construction-phase-plan-proposed-changes/{id}: the documented alias of POST …/accept and
 * …/reject (the other party decides, never the proposer, while the change still applies).
 */
import { decisionAlias } from '../decision-alias';
import { proposedChanges } from './definition';
import { changeDecisionDocument } from './writes';

export { changeDecisionDocument as requestBody } from './writes';

export const handler = decisionAlias('decideProposedChange', proposedChanges, changeDecisionDocument);
