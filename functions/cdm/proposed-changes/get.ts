import { getHandler } from '#shared/http/crud-handlers';
import { proposedChanges } from '#shared/resources/cdm/definitions';

/** GET /v3/construction-phase-plan-proposed-changes/{proposed_change_id} */
export const handler = getHandler('getProposedChange', proposedChanges, 'proposed_change_id');
